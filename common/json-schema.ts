/**
 * `FromSchema<typeof schema>`: the TypeScript type a JSON schema (written `as const`) describes, so a
 * wire shape is written once, as the schema the server validates and serialises with, and both
 * sides compile against the type derived from it. Covers the subset our contracts use: string,
 * boolean, integer/number, arrays, objects with `required` (others optional), string `enum`s,
 * `additionalProperties` maps, `type: [T, 'null']`, and `const` / `enum` without a `type`.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<P, R> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: FromSchema<P[K]> }
  & { -readonly [K in keyof P as K extends R ? never : K]?: FromSchema<P[K]> }
>;

type Typed<S, T> =
  T extends 'string' ? (S extends { enum: readonly (infer E)[] } ? E : string)
    : T extends 'boolean' ? boolean
      : T extends 'integer' | 'number' ? number
        : T extends 'null' ? null
          : T extends 'array' ? (S extends { items: infer I } ? FromSchema<I>[] : unknown[])
            : T extends 'object'
              ? S extends { properties: infer P }
                ? ObjectOf<P, S extends { required: readonly (infer R)[] } ? R : never>
                : S extends { additionalProperties: infer A }
                  ? A extends object ? Record<string, FromSchema<A>> : Record<string, unknown>
                  : Record<string, unknown>
              : unknown;

export type FromSchema<S> =
  S extends { const: infer C } ? C
    : S extends { type: readonly (infer T)[] } ? Typed<S, T>
      : S extends { type: infer T } ? Typed<S, T>
        : S extends { enum: readonly (infer E)[] } ? E
          : unknown;

/**
 * `FromSchema<typeof schema>`: the TypeScript type a JSON schema (written `as const`) describes, so a
 * wire shape is written once, as the schema the server validates and serialises with, and both
 * sides compile against the type derived from it. Covers the subset our contracts use: string,
 * boolean, integer/number, arrays, objects with `required` (others optional), string `enum`s,
 * `additionalProperties` maps, `type: [T, 'null']`, and `const` / `enum` without a `type`.
 *
 * `FromValidatedSchema<typeof schema>`: the same value after the server's validation, which fills
 * in defaults (Ajv `useDefaults`, server/app.ts): a property with a `default` is always there. The
 * REST routes' type provider (server/http/type-provider.ts) types requests with it.
 */

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** `never` (the schema as written) or `{ default: unknown }` (as validated: defaulted properties are present). */
type Present = { default: unknown };

type ObjectOf<P, R, D> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : P[K] extends D ? K : never]: Derive<P[K], D> }
  & { -readonly [K in keyof P as K extends R ? never : P[K] extends D ? never : K]?: Derive<P[K], D> }
>;

type Typed<S, T, D> =
  T extends 'string' ? (S extends { enum: readonly (infer E)[] } ? E : string)
    : T extends 'boolean' ? boolean
      : T extends 'integer' | 'number' ? number
        : T extends 'null' ? null
          : T extends 'array' ? (S extends { items: infer I } ? Derive<I, D>[] : unknown[])
            : T extends 'object'
              ? S extends { properties: infer P }
                ? ObjectOf<P, S extends { required: readonly (infer R)[] } ? R : never, D>
                : S extends { additionalProperties: infer A }
                  ? A extends object ? Record<string, Derive<A, D>> : Record<string, unknown>
                  : Record<string, unknown>
              : unknown;

type Derive<S, D> =
  S extends { const: infer C } ? C
    : S extends { type: readonly (infer T)[] } ? Typed<S, T, D>
      : S extends { type: infer T } ? Typed<S, T, D>
        : S extends { enum: readonly (infer E)[] } ? E
          : unknown;

export type FromSchema<S> = Derive<S, never>;

export type FromValidatedSchema<S> = Derive<S, Present>;

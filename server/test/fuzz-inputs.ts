/**
 * Input generators of the property-based fuzz (server/fuzz.test.ts): near-valid values built from a
 * route's own JSON schema or a GraphQL argument's type, and the one-field mutations that push them
 * to the boundaries (integers at 2^31 and 2^53, 1e21, negatives, floats, huge and empty strings,
 * wrong types, a missing required field, an unknown field). Test-only: nothing in the app imports it.
 */
import fc from 'fast-check';
import {
  getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType,
  type GraphQLInputType,
} from 'graphql';

/** A JSON schema as Fastify keeps it on a route (only the keywords the app's schemas use). */
export interface JsonSchema {
  type?: string | string[];
  enum?: readonly unknown[];
  const?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: readonly string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  anyOf?: readonly JsonSchema[];
  oneOf?: readonly JsonSchema[];
}

/** Issue 37: the largest amount each kind of currency takes (MONEY_MINOR_MAX minor units), and one minor unit more. */
export const MONEY_BOUNDS = [
  { currency: 'USD', max: '21474836.47', over: '21474836.48' },
  { currency: 'JPY', max: '2147483647', over: '2147483648' },
  { currency: 'KWD', max: '2147483.647', over: '2147483.648' },
] as const;
const MONEY_BOUNDARY_TEXTS = MONEY_BOUNDS.flatMap((b) => [b.max, b.over]);
/** Issue 37: dates PostgreSQL cannot store (year 0, a negative year, JavaScript's last date, 9999-12-31 that is 10000 in UTC). */
export const OUTSIDE_DATES = ['0000-01-01T00:00:00Z', '-000001-01-01T00:00:00Z', '+275760-09-13T00:00:00Z', '9999-12-31T23:00:00-05:00'] as const;
/** The last instant every date input takes (common/instant-bounds.ts). */
export const LAST_DATE = '9999-12-31T23:59:59Z';
/**
 * Issue 37: a stored file's address under a site that is not the caller's (files are scoped to their
 * site): a brand image or artwork naming it is a 400 naming the field, fetching it a 404, never a 5xx.
 */
export const FOREIGN_FILE_URL = `/v2.0/appcms/files/00000000-0000-4000-8000-000000000037/${'ab'.repeat(32)}.png`;

/** Values a field is pushed to, one at a time. */
const BOUNDARIES: readonly unknown[] = [
  2147483647, 2147483648, -2147483649, 9007199254740991, -9007199254740991, 1e21, -1e21, -1, 0, 1.5, -0.5,
  'x'.repeat(20_000), '', ' ', '1', '-1', '9007199254740993', '1e21', 'NaN', '0x10', 'null', 'true',
  '2026-02-30', '2026-11-26T10:07:07+20:00', '9999-12-31', '0000-01-01', '-'.repeat(36), 'X'.repeat(300),
  '😀'.repeat(50), '<script>alert(1)</script>', "' OR '1'='1", null, true, false, [], {}, [null], { a: 1 },
  // Issue 37: amounts at the money bound (2^31 - 1 minor units) and one more, in 2, 0 and 3 decimals;
  // the four dates PostgreSQL cannot store, and the last instant of the product's range.
  ...MONEY_BOUNDARY_TEXTS, ...OUTSIDE_DATES, LAST_DATE,
  // Issue 37: another site's file.
  FOREIGN_FILE_URL,
];

/** Strings of plain printable text (the hostile characters are the other fuzz's job). */
function plainText(minLength: number, maxLength: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789 -_.'), minLength, maxLength });
}

/** Where near-valid values come from: real ids and names of the seeded world, by field name. */
export interface ValuePools {
  /** A pool of real values for a field name (ids, usernames, ...); undefined = generate from the type. */
  forName(name: string): readonly string[] | undefined;
}

const EMAIL = fc.nat({ max: 1_000_000 }).map((n) => `fuzz-${n}@test.local`);
const PASSWORD = fc.constantFrom('Fuzz!Passw0rd-2026', 'Another#Str0ng-Secret');

function stringArbitrary(schema: JsonSchema, name: string, pools: ValuePools): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.min(schema.maxLength ?? 24, 24);
  const pool = pools.forName(name);
  if (pool && pool.length > 0) return fc.constantFrom(...pool);
  if (/email/i.test(name)) return EMAIL;
  if (/password/i.test(name)) return PASSWORD;
  if (/phone/i.test(name)) return fc.integer({ min: 0, max: 9_999_999 }).map((n) => `+1555${String(n).padStart(7, '0')}`);
  // In the future (issue 37: a go-live or publish time in the past is refused), inside the product's date range.
  if (schema.format === 'date-time' || /At$/.test(name)) return fc.integer({ min: 1, max: 60 }).map((d) => new Date(Date.UTC(2030, 0, d)).toISOString());
  if (schema.pattern) {
    const pattern = new RegExp(schema.pattern);
    return fc.stringMatching(pattern).filter((s) => s.length >= min && s.length <= (schema.maxLength ?? 10_000) && s.length < 200);
  }
  return plainText(Math.max(min, Math.min(3, max)), Math.max(min, max));
}

/** A value the schema accepts, shaped like real input. */
export function validFor(schema: JsonSchema, name: string, pools: ValuePools): fc.Arbitrary<unknown> {
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alt) => validFor(alt, name, pools)));
  const declared = [schema.type ?? (schema.properties ? 'object' : 'string')].flat();
  if (declared.includes('null') && declared.length > 1) return fc.oneof(fc.constant(null), validFor({ ...schema, type: declared.filter((type) => type !== 'null') }, name, pools));
  const type = declared[0] ?? 'null';
  switch (type) {
    case 'object': {
      const properties = schema.properties ?? {};
      const required = schema.required ?? [];
      return fc.record(
        Object.fromEntries(Object.entries(properties).map(([key, sub]) => [key, validFor(sub, key, pools)])),
        { requiredKeys: required.filter((key) => key in properties) as never[] },
      );
    }
    case 'array': {
      const min = schema.minItems ?? 0;
      return fc.array(validFor(schema.items ?? {}, name, pools), { minLength: min, maxLength: Math.max(min, Math.min(schema.maxItems ?? 3, 3)) });
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = Math.min(schema.maximum ?? min + 100, min + 100);
      return type === 'integer' ? fc.integer({ min, max }) : fc.double({ min, max, noNaN: true });
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return stringArbitrary(schema, name, pools);
  }
}

/** One mutation of a near-valid object: a field set to a boundary, dropped, or an unknown one added. */
export type Mutation =
  | { kind: 'set'; path: string[]; value: unknown }
  | { kind: 'drop'; path: string[] }
  | { kind: 'extra'; key: string; value: unknown }
  | { kind: 'whole'; value: unknown };

export const mutationArbitrary: fc.Arbitrary<{ pick: number; kind: 'set' | 'drop' | 'extra' | 'whole'; value: unknown; key: string }> = fc.record({
  pick: fc.nat(),
  kind: fc.constantFrom('set', 'set', 'set', 'set', 'drop', 'extra', 'whole'),
  value: fc.constantFrom(...BOUNDARIES),
  key: fc.constantFrom('extra', '__proto__', 'constructor', 'version', 'id', 'siteId', 'roles'),
});

/** Every path to a leaf or a container in `value` (objects and arrays, two levels deep). */
function pathsOf(value: unknown, prefix: string[] = [], depth = 0): string[][] {
  if (value === null || typeof value !== 'object' || depth > 2) return [];
  const paths: string[][] = [];
  for (const key of Object.keys(value)) {
    const path = [...prefix, key];
    paths.push(path);
    paths.push(...pathsOf((value as Record<string, unknown>)[key], path, depth + 1));
  }
  return paths;
}

/** Applies a mutation to a copy of `base`; the known paths include fields the schema has but the base left out. */
export function mutate(base: unknown, extraPaths: string[][], m: { pick: number; kind: string; value: unknown; key: string }): { value: unknown; what: string } {
  const copy = structuredClone(base) as Record<string, unknown> | unknown[];
  const paths = [...pathsOf(copy), ...extraPaths];
  if (m.kind === 'whole' || paths.length === 0 || copy === null || typeof copy !== 'object') return { value: m.value, what: 'whole body' };
  if (m.kind === 'extra') {
    if (Array.isArray(copy)) copy.push(m.value);
    else Object.defineProperty(copy, m.key, { value: m.value, enumerable: true, writable: true, configurable: true });
    return { value: copy, what: `extra ${m.key}` };
  }
  // Half the time a field that holds a number (versions, counts, pages): where the 2^31 and 1e21 500s were.
  const numeric = paths.filter((p) => typeof p.reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], copy) === 'number');
  const path = m.pick % 2 === 0 && numeric.length > 0 ? numeric[(m.pick >> 1) % numeric.length]! : paths[m.pick % paths.length]!;
  let parent: Record<string, unknown> = copy as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = parent[key];
    if (next === null || typeof next !== 'object') {
      parent[key] = {};
    }
    parent = parent[key] as Record<string, unknown>;
  }
  const leaf = path[path.length - 1]!;
  if (m.kind === 'drop') {
    if (Array.isArray(parent)) parent.splice(Number(leaf), 1);
    else delete parent[leaf];
    return { value: copy, what: `without ${path.join('.')}` };
  }
  parent[leaf] = m.value;
  return { value: copy, what: `${path.join('.')} = ${JSON.stringify(m.value)?.slice(0, 40)}` };
}

/** Every property path a schema declares (objects, two levels), so a mutation can also set a field the base left out. */
export function schemaPaths(schema: JsonSchema | undefined, prefix: string[] = [], depth = 0): string[][] {
  if (!schema?.properties || depth > 1) return [];
  return Object.entries(schema.properties).flatMap(([key, sub]) => [[...prefix, key], ...schemaPaths(sub, [...prefix, key], depth + 1)]);
}

/** A value of a GraphQL input type, shaped like real input (`name` is the argument or input field). */
export function graphqlValueFor(type: GraphQLInputType, name: string, pools: ValuePools, optionalOmitted = true): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return graphqlValueFor(type.ofType, name, pools, false);
  const inner: fc.Arbitrary<unknown> = (() => {
    if (isListType(type)) return fc.array(graphqlValueFor(type.ofType, name, pools, false), { maxLength: 3 });
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      return fc.record(
        Object.fromEntries(fields.map((field) => [field.name, graphqlValueFor(field.type, field.name, pools)])),
        { requiredKeys: fields.filter((field) => isNonNullType(field.type)).map((field) => field.name) as never[] },
      );
    }
    if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.value as unknown));
    const named = getNamedType(type);
    if (isScalarType(named)) {
      switch (named.name) {
        case 'Int':
          if (/version/i.test(name)) return fc.integer({ min: 1, max: 5 });
          if (/limit|pageSize/i.test(name)) return fc.integer({ min: 1, max: 50 });
          if (/page/i.test(name)) return fc.integer({ min: 1, max: 3 });
          if (/days/i.test(name)) return fc.integer({ min: 1, max: 30 });
          if (/percent/i.test(name)) return fc.integer({ min: 1, max: 100 });
          return fc.integer({ min: 0, max: 1000 });
        case 'Float':
          return fc.double({ min: 0, max: 1000, noNaN: true });
        case 'Boolean':
          return fc.boolean();
        default:
          return stringArbitrary({}, name, pools);
      }
    }
    return fc.constant(null);
  })();
  return optionalOmitted ? fc.option(inner, { freq: 8, nil: undefined }) : inner;
}

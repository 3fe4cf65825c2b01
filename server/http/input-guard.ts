/**
 * Refuses hostile text before any route's schema runs: a string (or object key) anywhere in the
 * body, query string or path parameters that holds a control character other than tab, line feed
 * and carriage return, or invalid UTF-16 (a lone surrogate). PostgreSQL cannot store U+0000 in text
 * and a lone surrogate cannot be encoded as UTF-8, so either would otherwise fail inside SQL as a
 * 500 (and lose the audit row); no field of this product has a use for them. One hook on the root
 * instance covers every route, REST and GraphQL (its variables and its document) alike.
 */
import { isRecord } from '../../common/one-of';
import type { FastifyInstance } from 'fastify';
import { API_PATHS } from '../../common/constants';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The message naming where the bad text is, e.g. `body.username`. */
function hostileTextMessage(where: string): string {
  return `${where} must not contain control characters or invalid Unicode`;
}

/**
 * Whether a string (or key) anywhere in `value` holds forbidden text; if so, `path` receives the
 * keys and indices leading to it, innermost first (a bad key: its object's path). Depth-bounded.
 * The path is built only once something is found: building `${where}.${key}` for every field of
 * every event was half of this hook's CPU on a batch of 500 player events (issue 42).
 */
function hostileText(value: unknown, depth: number, path: (string | number)[]): boolean {
  if (typeof value === 'string') return FORBIDDEN.test(value);
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      if (hostileText(value[i], depth + 1, path)) { path.push(i); return true; }
    }
    return false;
  }
  for (const [key, item] of Object.entries(value)) {
    if (FORBIDDEN.test(key)) return true;
    if (hostileText(item, depth + 1, path)) { path.push(key); return true; }
  }
  return false;
}

/** The path of the first string (or key) holding forbidden text, e.g. `body.events.3.isp`, or undefined. */
function findHostileText(value: unknown, where: string): string | undefined {
  const path: (string | number)[] = [];
  if (!hostileText(value, 0, path)) return undefined;
  return path.length === 0 ? where : `${where}.${path.reverse().join('.')}`;
}

/** GraphQL over GET carries its variables as a JSON string, escapes and all. */
function jsonVariablesOf(query: unknown): unknown {
  const variables = isRecord(query) ? query.variables : undefined;
  if (typeof variables !== 'string') return undefined;
  try {
    const parsed: unknown = JSON.parse(variables);
    return parsed;
  } catch {
    return undefined; // Mercurius answers malformed variables itself
  }
}

export function installInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (request, reply) => {
    const graphql = request.routeOptions.url === API_PATHS.graphql;
    const found = findHostileText(request.params, 'params')
      ?? findHostileText(request.query, 'querystring')
      ?? findHostileText(request.body, 'body')
      ?? (graphql ? findHostileText(jsonVariablesOf(request.query), 'querystring.variables') : undefined);
    if (!found) return;
    const message = hostileTextMessage(found);
    await reply.code(400).send(graphql
      ? { data: null, errors: [{ message, extensions: { code: 'BAD_USER_INPUT' } }] }
      : { success: false, message });
  });
}

/**
 * What the API clients and the server say about a request itself, whichever page sent it: spec §8
 * verbatim, and our own answers where the spec says "not shown". On the sign-in page's first load
 * (its API client reads it, issue 39); common/messages.ts spreads these in.
 */

/** The spec's words (§8). */
export const API_MESSAGES = {
  credentialsMissing: 'Authorization or API key missing',
  genericGraphqlError: 'Something went wrong!',
  invalidData: 'Invalid data',
  requestCancelled: 'Request cancelled',
} as const;

/** Our own answers of the REST and GraphQL endpoints. */
export const API_OWN_MESSAGES = {
  /** Per-token budget of authenticated routes and GraphQL (SECURITY.md C-RATE-1). */
  tooManyRequests: 'Too many requests. Please slow down and try again in a minute.',
  /** A GraphQL request over the size caps of server/graphql/gate.ts (413). */
  graphqlTooLarge: 'The GraphQL request is too large.',
  /** GraphQL `variables` that are JSON but not an object (GET ?variables="x"), refused before Mercurius (400). */
  graphqlVariablesNotObject: 'variables must be a JSON object',
  unauthorized: 'Unauthorized',
  badRequest: 'The request is not valid.',
  notFound: 'Not found',
} as const;

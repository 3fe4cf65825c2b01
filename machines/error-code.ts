/**
 * The fields a failed actor's error may carry (the REST client's ApiError: `status`; the GraphQL client
 * and the editor's failures: `code`), read without a cast: anything else reads as undefined.
 */
export function errorCodeOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
}

export function errorStatusOf(error: unknown): unknown {
  return typeof error === 'object' && error !== null && 'status' in error ? error.status : undefined;
}

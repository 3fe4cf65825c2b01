/**
 * A request whose failure leaves translated (issue 39: one copy for the content availability pages and
 * the Monetization pages): `failureOf` turns the server's refusal into what the editor machine reads
 * (an EditorFailure: conflict, not found, invalid with field messages) and passes anything else on.
 */
export async function translated<T>(run: () => Promise<T>, failureOf: (error: unknown) => unknown): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw failureOf(error);
  }
}

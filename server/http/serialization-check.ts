/**
 * Tests only (buildApp's `checkSerialization`): a response schema serialises with
 * fast-json-stringify, which silently drops a property the schema does not name and rounds a number
 * it calls an integer. This check compares every JSON answer with JSON.stringify of what the handler
 * (or the error handler) answered and turns any difference into a 500 naming the route, so a schema
 * that loses a field fails the tests of that route instead of the browser.
 */
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyRequest } from 'fastify';

const expected = new WeakMap<FastifyRequest, string>();

export function installSerializationCheck(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, _reply, payload) => {
    expected.set(request, JSON.stringify(payload));
    return payload;
  });
  app.addHook('onSend', async (request, reply, payload) => {
    const want = expected.get(request);
    expected.delete(request);
    if (want === undefined || typeof payload !== 'string') return payload;
    const sent: unknown = JSON.parse(payload);
    const answered: unknown = JSON.parse(want);
    if (isDeepStrictEqual(sent, answered)) return payload;
    const route = `${request.method} ${request.routeOptions.url ?? request.url} → ${reply.statusCode}`;
    console.error(`Response schema changed the answer of ${route}\nanswered: ${want.slice(0, 2000)}\nsent:     ${payload.slice(0, 2000)}`);
    throw new Error(`Response schema changed the answer of ${route}`);
  });
}

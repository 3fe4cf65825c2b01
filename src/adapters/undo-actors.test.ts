/**
 * Issue 37: the server names every request (x-request-id in its answer) and ignores a client's id.
 * A change that offers Undo is named by the machine with a local handle, which is never sent; the
 * write's adapter records the id the server answered under it, and the Undo asks with the server's.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { REQUEST_ID_HEADER, UNDO_ACCEPT_MS, UNDO_PATH } from '../../common/revisions';
import { configureClient } from '../api/client';
import { createGraphqlClient } from '../api/graphql';
import { createContentActors } from './content-actors';
import { createNetworkChangeActors } from './network-actors';
import { createUndoActors, rememberRequestId, serverRequestIdOf } from './undo-actors';

const CREDENTIALS = { accessToken: 'tok', apiKey: 'key' };
const SERVER_ID = '0b9c5c1e-3f65-4a57-9a0d-2f6f3b7f9d11';

function answer(body: unknown, requestId: string | null = SERVER_ID) {
  return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...(requestId ? { [REQUEST_ID_HEADER]: requestId } : {}) } });
}

/** Every call the fake server saw: its URL, headers and body. */
function fakeServer(respond: (url: string) => Response) {
  const calls: { url: string; headers: Record<string, string>; body: unknown }[] = [];
  const fetch = vi.fn<typeof globalThis.fetch>(async (input, init) => {
    const url = String(input);
    // Headers keeps each name lower-cased.
    calls.push({ url, headers: Object.fromEntries(new Headers(init?.headers).entries()), body: init?.body ? JSON.parse(String(init.body)) : undefined });
    return respond(url);
  });
  return { fetch, calls };
}

afterEach(() => configureClient({ fetch: (...args) => globalThis.fetch(...args) }));

describe('Undo names the id the server answered (issue 37)', () => {
  it('a bulk status change (REST) sends no request id of its own; its Undo posts the id of the server\'s answer', async () => {
    const server = fakeServer((url) => (url === UNDO_PATH ? answer({ success: true, revisions: [] }, 'a0000000-0000-4000-8000-000000000000') : answer({ success: true, updated: 2 })));
    configureClient({ fetch: server.fetch });
    const handle = crypto.randomUUID();
    const bulk = createActor(createContentActors(() => CREDENTIALS).bulkStatus, {
      input: { status: 'published', items: [{ id: 'a', version: 1 }, { id: 'b', version: 1 }], requestId: handle },
    }).start();
    expect(await toPromise(bulk)).toBe(2);
    expect(server.calls[0]!.headers).not.toHaveProperty(REQUEST_ID_HEADER);
    expect(serverRequestIdOf(handle)).toBe(SERVER_ID);

    const undo = createActor(createUndoActors(() => CREDENTIALS).applyUndo, { input: { requestId: handle } }).start();
    await toPromise(undo);
    expect(server.calls[1]).toMatchObject({ url: UNDO_PATH, body: { requestId: SERVER_ID } });
  });

  it('a network launch (GraphQL) records the id of its answer the same way', async () => {
    const server = fakeServer(() => answer({ data: { networkPublish: { success: true } } }, 'b0000000-0000-4000-8000-000000000000'));
    const client = createGraphqlClient({ url: 'http://test/management/graphql', fetch: server.fetch, getCredentials: () => CREDENTIALS });
    const handle = crypto.randomUUID();
    const launch = createActor(createNetworkChangeActors({ client, getCredentials: () => CREDENTIALS }).publishNetwork, { input: { site: 'demo', network: 'kids', requestId: handle } }).start();
    await toPromise(launch);
    expect(server.calls[0]!.headers).not.toHaveProperty(REQUEST_ID_HEADER);
    expect(server.calls[0]!.headers).toMatchObject({ authorization: 'Bearer tok', xapikey: 'key' });
    expect(serverRequestIdOf(handle)).toBe('b0000000-0000-4000-8000-000000000000');
  });

  it('a handle with no answer is sent as it is (the server finds nothing of it); answers are forgotten after the undo window', () => {
    const handle = crypto.randomUUID();
    expect(serverRequestIdOf(handle)).toBe(handle);
    rememberRequestId(handle, SERVER_ID, 1_000);
    expect(serverRequestIdOf(handle)).toBe(SERVER_ID);
    rememberRequestId(crypto.randomUUID(), SERVER_ID, 1_000 + UNDO_ACCEPT_MS + 1);
    expect(serverRequestIdOf(handle)).toBe(handle);
    rememberRequestId(handle, null);
    expect(serverRequestIdOf(handle)).toBe(handle);
  });
});

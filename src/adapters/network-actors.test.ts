import { describe, expect, it, vi } from 'vitest';
import { createActor, toPromise } from 'xstate';
import { CREDENTIALS_MISSING, networkMachine } from '../../machines/network.machine';
import { lastingUndoMachine } from '../../machines/lasting-undo.machine';
import { MESSAGES } from '../../common/messages';
import { launchGapsOf } from '../../common/appcms';
import { createGraphqlClient, runGraphql, SERVICE_GET } from '../api/graphql';
import { copyRequestFor, createNetworkActors, createNetworkChangeActors, networkDataOf, networkImplementations } from './network-actors';
import { networkChangeMachine } from '../../machines/network-change.machine';

const CREDENTIALS = { accessToken: 'tok', apiKey: 'key' };

function jsonResponse(body: unknown, status = 200) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function clientWith(fetch: typeof globalThis.fetch, getCredentials = () => CREDENTIALS as typeof CREDENTIALS | null) {
  return createGraphqlClient({ url: 'http://test/management/graphql', fetch, getCredentials });
}

describe('management GraphQL client', () => {
  it('POSTs operationName, variables and query with the Authorization and API key headers', async () => {
    const fetch = vi.fn(async () => jsonResponse({ data: { serviceGet: { id: '1', networks: [] } } }));
    await runGraphql(clientWith(fetch), 'query', SERVICE_GET, { site: 'demo' });
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('POST');
    // HTTP header names are case-insensitive; urql sends them lower-cased.
    expect(init.headers).toMatchObject({ authorization: 'Bearer tok', xapikey: 'key' });
    expect(JSON.parse(String(init.body))).toMatchObject({ operationName: 'serviceGet', variables: { site: 'demo' }, query: expect.stringContaining('serviceGet') });
  });

  it('uses the GraphQL error\'s message, or "Something went wrong!" when it has none', async () => {
    const named = clientWith(vi.fn(async () => jsonResponse({ data: null, errors: [{ message: 'Site not found' }] })));
    await expect(runGraphql(named, 'query', SERVICE_GET, { site: 'x' })).rejects.toThrow('Site not found');
    const blank = clientWith(vi.fn(async () => jsonResponse({ data: null, errors: [{ message: '' }] })));
    await expect(runGraphql(blank, 'query', SERVICE_GET, { site: 'x' })).rejects.toThrow(MESSAGES.genericGraphqlError);
  });

  it('turns a body that is not JSON into "Invalid data"', async () => {
    const html = clientWith(vi.fn(async () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } })));
    await expect(runGraphql(html, 'query', SERVICE_GET, { site: 'x' })).rejects.toThrow(MESSAGES.invalidData);
  });

  it('rejects with an AbortError when the signal aborts', async () => {
    const never = clientWith(vi.fn(() => new Promise<Response>(() => {})));
    const controller = new AbortController();
    const pending = runGraphql(never, 'query', SERVICE_GET, { site: 'x' }, controller.signal);
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });
});

describe('network actors', () => {
  it('wires the lasting Undo of the last change: the lastChange child gets the undo I/O, not the unprovided placeholder (issue 38)', () => {
    const actors = createNetworkActors({ client: clientWith(vi.fn(), () => null), getCredentials: () => null });
    const provided = actors.lastChange.implementations.actors.applyUndo;
    expect(provided).toBeDefined();
    expect(provided).not.toBe(lastingUndoMachine.implementations.actors.applyUndo);
    // The network machine's own implementations carry it as its lastChange child.
    expect(networkImplementations({ client: clientWith(vi.fn(), () => null) }).actors.lastChange).toBeDefined();
  });

  it('wires the change child with the launch, withdrawal and copy I/O, not the unprovided placeholders', () => {
    const { change } = createNetworkActors({ client: clientWith(vi.fn(), () => null), getCredentials: () => null });
    for (const name of ['publishNetwork', 'withdrawNetwork', 'copyFromDefault', 'previewCopy', 'checkReadiness'] as const) {
      expect(change.implementations.actors[name]).toBeDefined();
      expect(change.implementations.actors[name]).not.toBe(networkChangeMachine.implementations.actors[name]);
    }
  });

  it('refuses GraphQL calls without credentials with the credentials-missing error', async () => {
    const fetch = vi.fn();
    const actors = createNetworkChangeActors({ client: clientWith(fetch, () => null), getCredentials: () => null });
    const actor = createActor(actors.publishNetwork, { input: { site: 'demo', network: 'kids' } });
    actor.start();
    await expect(toPromise(actor)).rejects.toMatchObject({ code: CREDENTIALS_MISSING, message: MESSAGES.credentialsMissing });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('reads per-network data without credentials as nothing', async () => {
    const request = vi.fn();
    const actors = createNetworkActors({ client: clientWith(vi.fn()), getCredentials: () => null, request });
    const actor = createActor(actors.fetchNetworkData, { input: { site: 'demo', network: 'kids', kind: 'brand' } }).start();
    await expect(toPromise(actor)).resolves.toBeNull();
    expect(request).not.toHaveBeenCalled();
  });

  it('reads per-network data with both headers and drops the numeric status', async () => {
    const request = vi.fn(async () => ({ status: 200, theme: { primaryColor: '#fff' } }));
    const actors = createNetworkActors({ client: clientWith(vi.fn()), getCredentials: () => CREDENTIALS, request: request as never });
    const actor = createActor(actors.fetchNetworkData, { input: { site: 'demo site', network: 'kids', kind: 'brand' } }).start();
    await expect(toPromise(actor)).resolves.toEqual({ theme: { primaryColor: '#fff' } });
    expect(request).toHaveBeenCalledWith('/v4.0/appcms/demo%20site/brand/kids', expect.objectContaining({
      headers: { Authorization: 'Bearer tok', xApiKey: 'key' }, signal: expect.any(AbortSignal),
    }));
    expect(networkDataOf({ status: 'draft', a: 1 })).toEqual({ status: 'draft', a: 1 });
  });

  it('checks what a network lacks before a launch: a missing part (404) is a gap, another failure fails the check (issue 30)', async () => {
    const answers: Record<string, unknown> = {
      brand: { status: 404, message: 'not found' },
      settings: { status: 200, defaultLanguage: 'en' },
      device: { status: 200, devices: [{ platform: 'web', enabled: false }] },
    };
    const request = vi.fn(async (url: string) => answers[url.split('/')[4] ?? '']);
    const actors = createNetworkChangeActors({ client: clientWith(vi.fn()), getCredentials: () => CREDENTIALS, request: request as never });
    const actor = createActor(actors.checkReadiness, { input: { site: 'demo', network: 'kids' } }).start();
    await expect(toPromise(actor)).resolves.toEqual(['brand', 'platform']);
    expect(request).toHaveBeenCalledWith('/v4.0/appcms/demo/device/kids', expect.objectContaining({ headers: { Authorization: 'Bearer tok', xApiKey: 'key' } }));
    answers.brand = { status: 200, logoUrl: '/logo.png' };
    answers.device = { status: 200, devices: [{ platform: 'web', enabled: true }] };
    await expect(toPromise(createActor(actors.checkReadiness, { input: { site: 'demo', network: 'kids' } }).start())).resolves.toEqual([]);
    answers.settings = { status: 500, message: 'down' };
    await expect(toPromise(createActor(actors.checkReadiness, { input: { site: 'demo', network: 'kids' } }).start())).rejects.toThrow('down');
    expect(launchGapsOf({ brand: { logoUrl: ' ' }, settings: null, device: null })).toEqual(['brand', 'settings', 'platform']);
  });

  it('builds the copy request of spec §7.1', () => {
    expect(copyRequestFor({ site: 's', network: 'n', what: 'brand' })).toEqual({
      site: 's', network: 'n', networkBrand: { logoAndIcons: true, theme: true, themeOtt: true, themeApps: true }, networkSettings: false,
    });
    expect(copyRequestFor({ site: 's', network: 'n', what: 'settings' })).toMatchObject({ networkSettings: true, networkBrand: { theme: false } });
  });

  it('fits the network machine', () => {
    const machine = networkMachine.provide(networkImplementations({ client: clientWith(vi.fn()) }));
    expect(machine.id).toBe('network');
  });
});

import { describe, expect, it } from 'vitest';
import { qoeUrl, valuesUrl, viewUrl, viewsUrl } from './qoe-actors';

describe('the QoE API addresses (issue 41)', () => {
  it('asks for values, views and one view with the page query, empty values left out', () => {
    expect(valuesUrl({ dimension: 'isp', query: { from: '2026-11-01', to: '2026-11-30', f: 'device:web,ios;!isp:Slow%20Net' } }))
      .toBe('/appcms/v2/qoe/values?dimension=isp&f=device%3Aweb%2Cios%3B%21isp%3ASlow%2520Net&from=2026-11-01&to=2026-11-30');
    expect(viewsUrl({ query: { from: '2026-11-01', to: '2026-11-30', network: 'sports' }, page: 2, sort: 'rebufferPct', dir: 'desc' }))
      .toBe('/appcms/v2/qoe/views?dir=desc&from=2026-11-01&network=sports&page=2&sort=rebufferPct&to=2026-11-30');
    expect(viewUrl({ sessionId: 'a/b' })).toBe('/appcms/v2/qoe/views/a%2Fb');
    expect(qoeUrl('/x', { a: '', b: undefined })).toBe('/x');
  });
});

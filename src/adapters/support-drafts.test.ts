// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import type { SupportDraft } from '../../machines/support-subscriber.machine';
import { forgetSupportDraft, keepSupportDraft, readSupportDraft } from './support-actors';

afterEach(() => sessionStorage.clear());

const VALUES = { reason: 'Outage', mode: 'NOW', days: '14', note: '', planId: 'plan-2', when: 'AT_PERIOD_END', amount: '4.99' } as const;

describe('a support action\'s draft (issue 38)', () => {
  it('keeps each kind of action with its object and version, per subscriber, and forgets it', () => {
    const drafts: SupportDraft[] = [
      { request: { kind: 'changePlan', subscriptionId: 's1' }, version: 3, values: VALUES },
      { request: { kind: 'refundPayment', paymentId: 'p1' }, version: 2, values: VALUES },
      { request: { kind: 'signOutDevices', deviceId: 'd1' }, version: 1, values: VALUES },
      { request: { kind: 'signOutDevices', deviceId: null }, version: 1, values: VALUES },
      { request: { kind: 'addNote' }, version: 4, values: VALUES },
      { request: { kind: 'revealContact' }, version: 4, values: VALUES },
    ];
    for (const draft of drafts) {
      keepSupportDraft('sub-a', draft);
      expect(readSupportDraft('sub-a')).toEqual(draft);
    }
    expect(readSupportDraft('sub-b')).toBeNull();
    forgetSupportDraft('sub-a');
    expect(readSupportDraft('sub-a')).toBeNull();
  });

  it('a draft of null drops the kept one (nothing typed any more)', () => {
    keepSupportDraft('sub-a', { request: { kind: 'addNote' }, version: 1, values: VALUES });
    keepSupportDraft('sub-a', null);
    expect(sessionStorage.length).toBe(0);
  });

  it('reads nothing that names no action or object, and falls back on unreadable fields', () => {
    sessionStorage.setItem('formDraft:supportAction:sub-a', JSON.stringify({ version: 1, values: { action: 'deleteEverything', target: 'x' } }));
    expect(readSupportDraft('sub-a')).toBeNull();
    sessionStorage.setItem('formDraft:supportAction:sub-a', JSON.stringify({ version: 1, values: { action: 'grantDays', target: '' } }));
    expect(readSupportDraft('sub-a')).toBeNull();
    sessionStorage.setItem('formDraft:supportAction:sub-a', JSON.stringify({ version: 1, values: { action: 'refundPayment', target: 7 } }));
    expect(readSupportDraft('sub-a')).toBeNull();
    sessionStorage.setItem('formDraft:supportAction:sub-a', JSON.stringify({ version: 1, values: { action: 'grantDays', target: 's1', mode: 'SOMETIME', days: 3, reason: 'r' } }));
    expect(readSupportDraft('sub-a')).toEqual({
      request: { kind: 'grantDays', subscriptionId: 's1' }, version: 1,
      values: { reason: 'r', mode: 'AT_PERIOD_END', days: '', note: '', planId: '', when: 'NOW', amount: '' },
    });
    sessionStorage.setItem('formDraft:supportAction:sub-a', 'not json');
    expect(readSupportDraft('sub-a')).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { CONTENT_STATUSES } from './content';
import { SUBSCRIPTION_STATE_RULES } from './figures';
import { COUPON_STATUSES, OFFER_STATUSES, PLAN_STATUSES } from './monetization-rules';
import {
  CONTENT_STATUS_WORDS, COUPON_STATUS_WORDS, DEVICE_SESSION_STATES, DEVICE_SESSION_WORDS, NETWORK_STATES, NETWORK_STATE_WORDS,
  OFFER_STATUS_WORDS, PAYMENT_STATUSES, PAYMENT_STATUS_WORDS, PLAN_STATUS_WORDS, STAFF_ACCOUNT_STATES, STAFF_ACCOUNT_WORDS,
  STATUS_WORDS_BY_CODE, SUBSCRIBER_STATUS_WORDS, SUBSCRIPTION_STATE_WORDS, SUBSCRIPTION_STATUS_WORDS, statusWord,
} from './status-words';
import { SUBSCRIPTION_STATES } from './subscription-states';
import { REFUNDABLE_PAYMENT_STATUSES, SUBSCRIBER_STATUSES, SUBSCRIPTION_STATUSES } from './support';

const VOCABULARIES: [string, readonly string[], Readonly<Record<string, string>>][] = [
  ['content statuses', CONTENT_STATUSES, CONTENT_STATUS_WORDS],
  ['subscriber statuses', SUBSCRIBER_STATUSES, SUBSCRIBER_STATUS_WORDS],
  ['subscription statuses', SUBSCRIPTION_STATUSES, SUBSCRIPTION_STATUS_WORDS],
  ['subscription states', SUBSCRIPTION_STATES, SUBSCRIPTION_STATE_WORDS],
  ['payment statuses', PAYMENT_STATUSES, PAYMENT_STATUS_WORDS],
  ['plan statuses', PLAN_STATUSES, PLAN_STATUS_WORDS],
  ['offer statuses', OFFER_STATUSES, OFFER_STATUS_WORDS],
  ['coupon statuses', COUPON_STATUSES, COUPON_STATUS_WORDS],
  ['staff accounts', STAFF_ACCOUNT_STATES, STAFF_ACCOUNT_WORDS],
  ['networks', NETWORK_STATES, NETWORK_STATE_WORDS],
  ['device sessions', DEVICE_SESSION_STATES, DEVICE_SESSION_WORDS],
];

/** Sentence case: a capital first letter, every other letter lower case (no proper nouns among the status words). */
const SENTENCE_CASE = /^[A-Z][a-z]*( [a-z]+)*$/;

describe('status words: one word per code, sentence case, the same in every area', () => {
  it.each(VOCABULARIES)('every code of the %s has a word and no other key is there', (_name, codes, words) => {
    expect(Object.keys(words).sort()).toEqual([...codes].sort());
    for (const code of codes) expect(words[code], code).toBeTruthy();
  });

  it.each(VOCABULARIES)('the %s read in sentence case', (_name, codes, words) => {
    for (const code of codes) expect(words[code], code).toMatch(SENTENCE_CASE);
  });

  it('a code shared by several vocabularies reads the same word in each', () => {
    const byCode = new Map<string, Set<string>>();
    for (const [, codes, words] of VOCABULARIES) {
      for (const code of codes) byCode.set(code, (byCode.get(code) ?? new Set()).add(words[code] ?? ''));
    }
    for (const [code, seen] of byCode) expect([...seen], code).toHaveLength(1);
    expect(byCode.get('active')).toEqual(new Set(['Active']));
    expect(byCode.get('trialing')).toEqual(new Set(['In trial']));
  });

  it('the merged map has every stored status code with the word of its own vocabulary', () => {
    for (const [name, codes, words] of VOCABULARIES) {
      if (name === 'subscription states' || name === 'networks' || name === 'device sessions') continue;
      for (const code of codes) expect(STATUS_WORDS_BY_CODE[code], `${name}: ${code}`).toBe(words[code]);
    }
    expect(STATUS_WORDS_BY_CODE.published).toBe('Published');
    expect(STATUS_WORDS_BY_CODE.partially_refunded).toBe('Partly refunded');
  });

  it('the words the brief names read as written', () => {
    expect(SUBSCRIPTION_STATUS_WORDS.past_due).toBe('Past due');
    expect(SUBSCRIPTION_STATE_WORDS.cancelling).toBe('Cancelling at period end');
    expect(CONTENT_STATUS_WORDS.published).toBe('Published');
    expect(NETWORK_STATE_WORDS.not_launched).toBe('Not launched');
  });

  it('the Dashboard\'s and Users\' subscription state labels are these words', () => {
    for (const state of SUBSCRIPTION_STATES) expect(SUBSCRIPTION_STATE_RULES[state].label).toBe(SUBSCRIPTION_STATE_WORDS[state]);
  });

  it('every refundable payment status is a payment status with a word', () => {
    for (const status of REFUNDABLE_PAYMENT_STATUSES) expect(PAYMENT_STATUSES).toContain(status);
  });

  it('statusWord: the word of a known code, a code it does not know in sentence case, never the raw code', () => {
    expect(statusWord(PAYMENT_STATUS_WORDS, 'partially_refunded')).toBe('Partly refunded');
    expect(statusWord(PAYMENT_STATUS_WORDS, 'chargeback_LOST')).toBe('Chargeback lost');
    expect(statusWord(PAYMENT_STATUS_WORDS, 'toString')).toBe('Tostring');
    expect(statusWord(PAYMENT_STATUS_WORDS, '')).toBe('—');
  });
});

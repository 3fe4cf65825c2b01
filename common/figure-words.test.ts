/**
 * Issue 38: every help text of a figure, of a subscription state and of a plan's count (Monetization ›
 * Plans, the price note, Users under a plan) is in operator words: no column or table names
 * ("subscribers.created_at"), no snake_case, no "rows".
 */
import { describe, expect, it } from 'vitest';
import { FIGURES, SUBSCRIPTION_STATE_RULES } from './figures';
import { PLAN_FIGURES } from './plan-figures';

const COLUMN_WORDS = /\b[a-z]+_[a-z_]+\b|\b[a-z]+\.[a-z]+\b|\b(rows?|columns?|tables?|rollups?)\b|\b_?id\b/i;

describe('figure help texts', () => {
  const helps = [
    ...Object.entries(FIGURES).map(([key, f]) => [key, f.help] as const),
    ...Object.entries(SUBSCRIPTION_STATE_RULES).map(([key, r]) => [`state ${key}`, r.help] as const),
    ...Object.entries(PLAN_FIGURES).map(([key, f]) => [`plan count ${key}`, f.help] as const),
  ];

  it('are read (a guard against an empty scan)', () => {
    expect(helps.length).toBeGreaterThan(20);
    expect(helps.filter(([key]) => key.startsWith('plan count ')).length).toBe(Object.keys(PLAN_FIGURES).length);
  });

  it.each(helps)('%s names no column, table or row', (_key, help) => {
    expect(help).not.toMatch(COLUMN_WORDS);
  });

  it('name no zone but the site\'s: days and months are the site\'s, in its time zone (issue 38)', () => {
    expect(helps.filter(([, help]) => /\bUTC\b|GMT/.test(help))).toEqual([]);
    expect(FIGURES.sessions.help).toContain('in the site\'s time zone');
  });
});

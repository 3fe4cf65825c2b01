/**
 * Issue 28: every audit action the server writes is in the one list of common/audit-actions.ts (its
 * area and label), so the audit log's filters offer it and its rows read in words. This scans the
 * server's source (and common/'s catalogues) for the actions written: `action: '<literal>'`, the
 * literal passed to an audit helper, and every value of an exported `*AUDIT*` catalogue. The runtime
 * side (every action the write routes actually record) is checked at the end of revisions.test.ts.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ADMIN_AUDIT_ACTIONS } from '../common/admin-contract';
import {
  AUDIT_ACTION_KINDS, AUDIT_ACTION_LIST, AUDIT_AREAS, RESTORE_ACTION_OF, auditActionInfo, auditActionLabel, auditActionsOfArea, auditRowLabel,
} from '../common/audit-actions';
import { SUPPORT_AUDIT_ACTIONS } from '../common/support';
import { TOTP_AUDIT_ACTIONS } from '../common/totp';
import { APPCMS_AUDIT } from './domain/appcms';
import { MONETIZATION_AUDIT } from './domain/monetization';
import { AUDIT_ACTIONS as NETWORK_AUDIT_ACTIONS } from './domain/networks';
import { OWN_SESSION_AUDIT_ACTIONS } from './domain/own-sessions';
import { CREATE_ELSEWHERE_AUDIT } from './domain/staff-admin';

const ROOT = join(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'test' || name === 'node_modules' ? [] : sourceFiles(path);
    return /\.ts$/.test(name) && !/\.test\.ts$/.test(name) ? [path] : [];
  });
}

const ACTION_LITERAL = /'([a-z]+(?:\.[a-zA-Z_]+)*)'/g;

/** The action literals a file writes, each with where it was found. */
function writtenActions(path: string): Array<{ action: string; at: string }> {
  const text = readFileSync(path, 'utf8');
  const found: Array<{ action: string; at: string }> = [];
  const at = (index: number) => `${relative(ROOT, path)}:${text.slice(0, index).split('\n').length}`;
  // `action: '<literal>'` (not a type's union `action: 'publish' | 'unpublish'`, not a message).
  for (const m of text.matchAll(/\baction\s*:\s*'([a-z][a-zA-Z_]*(?:\.[a-zA-Z_]+)*)'(?!\s*\|)/g)) found.push({ action: m[1]!, at: at(m.index!) });
  // `action: cond ? '<literal>' : '<literal>'` (issue 38: the scheduler's publish and its refusal were missed).
  for (const m of text.matchAll(/\baction\s*:\s*[\w.!]+\s*\?\s*'([a-z][\w.]*)'\s*:\s*'([a-z][\w.]*)'/g)) {
    found.push({ action: m[1]!, at: at(m.index!) }, { action: m[2]!, at: at(m.index!) });
  }
  for (const m of text.matchAll(/\b(?:record|audit)\(\s*[\w.]+\s*,\s*'([^']+)'/g)) found.push({ action: m[1]!, at: at(m.index!) });
  // Every exported audit catalogue: `export const X_AUDIT = …` or `X_AUDIT_ACTIONS = …`, an object of actions or one.
  for (const m of text.matchAll(/export const (\w*_AUDIT|\w*AUDIT_ACTIONS)\s*(?::[^=]+)?=\s*(\{[\s\S]*?\}|'[^']+')/g)) {
    for (const lit of m[2]!.matchAll(ACTION_LITERAL)) found.push({ action: lit[1]!, at: at(m.index!) });
  }
  return found;
}

describe('the one list of audit actions (common/audit-actions.ts)', () => {
  it('gives a scheduled publication a label and the Content area (issue 38)', () => {
    expect(AUDIT_ACTION_LIST.find((a) => a.action === 'content.scheduled_publish')).toEqual({ action: 'content.scheduled_publish', area: 'content', label: 'Content item published on schedule' });
    expect(auditActionsOfArea('content').map((a) => a.action)).toContain('content.scheduled_publish_refused');
  });

  it('has a restore action, in the save\'s area, for every save a History restore writes', () => {
    for (const [save, restore] of Object.entries(RESTORE_ACTION_OF)) {
      expect(auditActionInfo(restore)?.area, restore).toBe(auditActionInfo(save)?.area);
      expect(auditActionLabel(restore), restore).toMatch(/ restored$/);
    }
    expect(auditRowLabel('appcms.settings.restore', { restoredRevision: 23 })).toBe('Settings restored from #23');
    // A save keeps its label; a settings-version restore (no revision named) reads without a number.
    expect(auditRowLabel('appcms.settings.save', { restoredRevision: 23 })).toBe('Settings saved');
    expect(auditRowLabel('appcms.settings.restore', { restoredFrom: 3 })).toBe('Settings restored');
  });

  it('names every action once, with an area and a label in words', () => {
    expect(new Set(AUDIT_ACTION_KINDS).size).toBe(AUDIT_ACTION_KINDS.length);
    for (const info of AUDIT_ACTION_LIST) {
      expect(Object.keys(AUDIT_AREAS)).toContain(info.area);
      expect(info.label.trim().length, info.action).toBeGreaterThan(3);
      expect(info.label, info.action).not.toContain('.');
    }
  });

  it('holds every value of the areas\' audit catalogues', () => {
    const catalogues = [
      ADMIN_AUDIT_ACTIONS, SUPPORT_AUDIT_ACTIONS, TOTP_AUDIT_ACTIONS, APPCMS_AUDIT, MONETIZATION_AUDIT,
      NETWORK_AUDIT_ACTIONS, OWN_SESSION_AUDIT_ACTIONS, { createElsewhere: CREATE_ELSEWHERE_AUDIT },
    ];
    const missing = catalogues.flatMap((c) => Object.values(c)).filter((action) => !AUDIT_ACTION_KINDS.includes(action));
    expect(missing).toEqual([]);
  });

  it('holds every action the server\'s source writes', () => {
    const files = [...sourceFiles(join(ROOT, 'server')), ...sourceFiles(join(ROOT, 'common'))];
    const found = files.flatMap(writtenActions);
    // The scan does find the writes (a guard against a scan that silently finds nothing).
    expect(found.map((f) => f.action)).toEqual(expect.arrayContaining([
      'login.success', 'logout', 'appcms.brand.save', 'network.publish', 'content.update', 'content.scheduled_publish', 'content.scheduled_publish_refused',
    ]));
    const missing = found.filter((f) => !AUDIT_ACTION_KINDS.includes(f.action)).map((f) => `${f.action} (${f.at})`);
    expect(missing).toEqual([]);
  });
});

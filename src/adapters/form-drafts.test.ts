// @vitest-environment jsdom
/** Issue 38: the one draft store of the forms, and that no password, code or secret ever reaches it. */
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, toPromise } from 'xstate';
import type { EditorLoadInput, EditorRecord, EditorSaveInput } from '../../machines/editor.machine';
import { editorDrafts, forgetFormDraft, keepFormDraft, readFormDraft, SECRET_FIELD, withoutSecrets } from './form-drafts';

afterEach(() => { sessionStorage.clear(); });

const RECORD: EditorRecord = { id: 'p1', values: { name: 'Gold', trialDays: '7' }, version: 3, data: null };
const load = fromPromise<EditorRecord, EditorLoadInput>(async ({ input }) => ({ ...RECORD, id: input.id }));
const loadOnce = (logic: ReturnType<typeof editorDrafts>['load'], id: string) => toPromise(createActor(logic, { input: { id } }).start());

describe('form drafts (issue 38)', () => {
  it('never stores a password, a code or a secret, whatever the form', () => {
    for (const field of ['password', 'currentPassword', 'newPassword', 'code', 'otpCode', 'otp', 'clientSecret', 'apiToken', 'passcode']) {
      expect(SECRET_FIELD.test(field)).toBe(true);
    }
    for (const field of ['name', 'description', 'email', 'countries', 'codeCount']) expect(SECRET_FIELD.test(field)).toBe(false);
    keepFormDraft('account.password', { version: 0, values: { currentPassword: 'hunter2', newPassword: 'Sup3r-secret!', code: '123456' } });
    expect(sessionStorage.length).toBe(0);
    keepFormDraft('staff.invite', { version: 0, values: { email: 'ana@demo.test', password: 'x', apiToken: 't' } });
    expect(JSON.stringify({ ...sessionStorage })).not.toMatch(/hunter2|Sup3r|123456|"x"|"t"/);
    expect(readFormDraft('staff.invite')).toEqual({ version: 0, values: { email: 'ana@demo.test' } });
    expect(withoutSecrets({ name: 'a', password: 'b' })).toEqual({ name: 'a' });
  });

  it('keeps, reads back and forgets a draft; drops what is not one', () => {
    expect(readFormDraft('monetization.plan:p1')).toBeNull();
    keepFormDraft('monetization.plan:p1', { version: 3, values: { name: 'Gold+', planIds: ['a', 'b'], trial: null, count: 2, on: true } });
    expect(readFormDraft('monetization.plan:p1')).toEqual({ version: 3, values: { name: 'Gold+', planIds: ['a', 'b'], trial: null, count: 2, on: true } });
    forgetFormDraft('monetization.plan:p1');
    expect(readFormDraft('monetization.plan:p1')).toBeNull();
    sessionStorage.setItem('formDraft:broken', '{not json');
    expect(readFormDraft('broken')).toBeNull();
    sessionStorage.setItem('formDraft:odd', JSON.stringify({ version: '3', values: {} }));
    expect(readFormDraft('odd')).toBeNull();
    sessionStorage.setItem('formDraft:list', JSON.stringify({ version: 1, values: ['a'] }));
    expect(readFormDraft('list')).toBeNull();
    sessionStorage.setItem('formDraft:null', 'null');
    expect(readFormDraft('null')).toBeNull();
    sessionStorage.setItem('formDraft:mixed', JSON.stringify({ version: 1, values: { name: 'a', nested: { x: 1 }, list: [1], password: 'p' } }));
    expect(readFormDraft('mixed')).toEqual({ version: 1, values: { name: 'a' } });
  });

  it("answers the editor's load with the changes kept for that record at that version only; keepDraft and forgetDraft write and drop them", async () => {
    const drafts = editorDrafts('monetization.plan', load);
    expect(await loadOnce(drafts.load, 'p1')).toEqual({ ...RECORD });
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 3, changes: { name: 'Gold+' } });
    expect(await loadOnce(drafts.load, 'p1')).toEqual({ ...RECORD, keptDraft: { name: 'Gold+' } });
    // Another record, or this one at another version, opens as stored.
    expect((await loadOnce(drafts.load, 'p2')).keptDraft).toBeUndefined();
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 2, changes: { name: 'Old' } });
    expect((await loadOnce(drafts.load, 'p1')).keptDraft).toBeUndefined();
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 3, changes: {} });
    expect(readFormDraft('monetization.plan:p1')).toBeNull();
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 3, changes: { name: 'Gold+' } });
    drafts.actions.forgetDraft(undefined, { id: 'p1' });
    expect(readFormDraft('monetization.plan:p1')).toBeNull();
  });

  it('drops a draft the record moved past when it says only what is stored now; keeps one that says more (unapplied)', async () => {
    const drafts = editorDrafts('content.item', load);
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 2, changes: { name: 'Gold+' } });
    expect((await loadOnce(drafts.load, 'p1')).keptDraft).toBeUndefined();
    expect(readFormDraft('content.item:p1')).toEqual({ version: 2, values: { name: 'Gold+' } });
    // The record (now at 3) holds what the draft typed at 2: the draft goes, and the form opens clean.
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 2, changes: { name: 'Gold' } });
    expect((await loadOnce(drafts.load, 'p1')).keptDraft).toBeUndefined();
    expect(readFormDraft('content.item:p1')).toBeNull();
    // A draft of a later version than the one read (another tab's) stays.
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 4, changes: { name: 'Gold' } });
    await loadOnce(drafts.load, 'p1');
    expect(readFormDraft('content.item:p1')).toEqual({ version: 4, values: { name: 'Gold' } });
  });

  it('drops a draft equal to the stored values at the version it was typed on too (nothing left to bring back)', async () => {
    const drafts = editorDrafts('content.item', load);
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 3, changes: { name: 'Gold', trialDays: '7' } });
    expect((await loadOnce(drafts.load, 'p1')).keptDraft).toBeUndefined();
    expect(readFormDraft('content.item:p1')).toBeNull();
  });

  it('drops the kept draft once its save is stored, also when the page left before the answer (issue 38)', async () => {
    let answer: (record: EditorRecord) => void = () => {};
    const save = fromPromise<EditorRecord, EditorSaveInput>(({ input }) => new Promise((resolve) => {
      answer = (record) => resolve({ ...record, values: { ...record.values, ...input.changes } });
    }));
    const drafts = editorDrafts('content.item', load);
    const input: EditorSaveInput = { id: 'p1', version: 3, changes: { name: 'Gold+' }, draft: { name: 'Gold+', trialDays: '7' } };
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 3, changes: { name: 'Gold+' } });
    // Back during the save: the editor stops its save actor; the write itself goes on.
    const running = createActor(drafts.save(save), { input }).start();
    running.stop();
    expect(readFormDraft('content.item:p1')).toEqual({ version: 3, values: { name: 'Gold+' } });
    answer({ ...RECORD, version: 4 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(readFormDraft('content.item:p1')).toBeNull();
    // Typed again (differently) while a save ran: that draft stays.
    drafts.actions.keepDraft(undefined, { id: 'p1', version: 4, changes: { name: 'Platinum' } });
    const again = toPromise(createActor(drafts.save(save), { input: { ...input, version: 4 } }).start());
    answer({ ...RECORD, version: 5 });
    expect((await again).version).toBe(5);
    expect(readFormDraft('content.item:p1')).toEqual({ version: 4, values: { name: 'Platinum' } });
  });

  it('keeps a scoped record apart per scope (AppCMS: per site and network, per page)', async () => {
    const scoped = fromPromise<EditorRecord, EditorLoadInput>(async ({ input }) => ({ ...RECORD, id: input.id }));
    const brand = editorDrafts('appcms.brand', scoped);
    const loadAt = (network: string, site: string) => toPromise(createActor(brand.load, { input: { id: network, scope: { site, network } } }).start());
    brand.actions.keepDraft(undefined, { id: 'kids', scope: { site: 'demo', network: 'kids' }, version: 3, changes: { name: 'Kids+' } });
    expect(Object.keys({ ...sessionStorage })).toEqual(['formDraft:appcms.brand:network=kids:site=demo:kids']);
    expect((await loadAt('kids', 'demo')).keptDraft).toEqual({ name: 'Kids+' });
    expect((await loadAt('kids', 'other')).keptDraft).toBeUndefined();
    expect((await loadAt('sports', 'demo')).keptDraft).toBeUndefined();
    expect((await loadOnce(editorDrafts('appcms.settings', scoped).load, 'kids')).keptDraft).toBeUndefined();
    brand.actions.forgetDraft(undefined, { id: 'kids', scope: { site: 'demo', network: 'kids' } });
    expect(sessionStorage.length).toBe(0);
  });
});

import { describe, expect, it } from 'vitest';
import { EditorFailure, failureFields } from './editor.setup';

describe('failureFields', () => {
  it('reads the field messages of a refused save; anything else carries none', () => {
    expect(failureFields(new EditorFailure('invalid', 'Check the form.', { title: 'Required.' }))).toEqual({ title: 'Required.' });
    expect(failureFields({ fields: { title: 'Required.', count: 3 } })).toEqual({ title: 'Required.' });
    expect(failureFields({ fields: null })).toEqual({});
    expect(failureFields({ fields: 'title' })).toEqual({});
    expect(failureFields(new Error('down'))).toEqual({});
    expect(failureFields(null)).toEqual({});
    expect(failureFields('refused')).toEqual({});
  });
});

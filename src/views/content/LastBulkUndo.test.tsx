import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { signedInAs, contentRow } from '../../test-harness/content-fixtures';
import type { ContentListPage } from '../../../machines/content-browser.machine';
import { lastingUndoMachine } from '../../../machines/lasting-undo.machine';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { renderView } from '../../test-harness/render-view';
import { ContentLibraryPage } from './ContentLibraryPage';

const PAGE: ContentListPage = { items: [contentRow(1), contentRow(2, { title: 'Storm Chasers', status: 'draft', kind: 'video' })], total: 2, start: 0 };

describe('the library\'s lasting Undo of a bulk change (issue 38)', () => {
  it('keeps "Undo publish of 2 items" beside the bulk actions after the snackbar\'s message, and undoes the request with it', async () => {
    const bulkSent: { requestId?: string }[] = [];
    const undone: unknown[] = [];
    const view = await renderView(<ContentLibraryPage />, {
      url: '/content',
      actors: {
        auth: { readStoredSession: fakeActor(() => signedInAs({ Content: 'write' })) },
        contentBrowser: {
          fetchPage: fakeActor(() => PAGE),
          bulkStatus: fakeActor((input: { requestId?: string }) => { bulkSent.push(input); return 2; }),
          lastBulk: lastingUndoMachine.provide({ actors: { applyUndo: fakeActor((input: unknown) => { undone.push(input); return {}; }) } }),
        },
      },
      given: (root) => { root.send({ type: 'path.changed', path: '/content' }); },
    });
    const bulk = screen.getByRole('group', { name: 'Bulk actions' });
    expect(within(bulk).queryByTestId('content-last-bulk-undo')).toBeNull();
    await view.user.click(screen.getByRole('checkbox', { name: 'Select all rows of this page' }));
    await view.user.click(within(bulk).getByRole('button', { name: 'Publish' }));
    await view.user.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Publish 2' }));
    const undo = await within(bulk).findByRole('button', { name: 'Undo publish of 2 items' });
    expect(bulkSent).toHaveLength(1);
    await view.user.click(undo);
    await waitFor(() => expect(undone).toEqual([{ requestId: bulkSent[0]!.requestId }]));
    await waitFor(() => expect(within(bulk).queryByTestId('content-last-bulk-undo')).toBeNull());
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { listMachine, type ListPage } from '../../../machines/list.machine';
import { renderView } from '../../test-harness/render-view';
import { DefaultComparison } from './DefaultComparison';

function listOf(answer: () => Promise<ListPage>) {
  return createActor(listMachine.provide({ actors: { fetchPage: fromPromise(answer) } }), { input: { limit: 100 } }).start();
}

describe('DefaultComparison', () => {
  it('shows each field that a copy would change, this network\'s value beside the default\'s', async () => {
    const row = { id: 'maxStreams', field: 'maxStreams', label: 'Simultaneous streams', from: '2', to: '4' };
    const list = listOf(async () => ({ items: [row], total: 1 }));
    await renderView(<DefaultComparison list={list} part="settings" />);
    expect(await within(screen.getByTestId('copy-preview-settings')).findByRole('row', { name: 'Simultaneous streams 2 4' })).toBeTruthy();
  });

  it('shows why the comparison failed', async () => {
    const list = listOf(async () => { throw new Error('The server cannot be reached.'); });
    await renderView(<DefaultComparison list={list} part="brand" />);
    expect(await screen.findByText('The server cannot be reached.')).toBeTruthy();
  });
});

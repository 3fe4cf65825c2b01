import { act, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise } from 'xstate';
import { reportMachine } from '../../../machines/report.machine';
import { renderView } from '../../test-harness/render-view';
import { LiveStatus, ReportStates, Skeleton } from './ReportView';
import { seriesAnswer } from '../../test-harness/analytics-fixtures';

function actorWith(fetch: () => Promise<never> | Promise<ReturnType<typeof seriesAnswer>[]>, realtime = true) {
  let sendVisibility: ((e: { type: 'page.hidden' | 'page.visible' }) => void) | undefined;
  const actor = createActor(reportMachine.provide({
    actors: { fetchReports: fromPromise(fetch), visibility: fromCallback(({ sendBack }) => { sendVisibility = sendBack; }) },
  }), { input: { requests: [], realtime } }).start();
  return { actor, hide: () => sendVisibility!({ type: 'page.hidden' }) };
}

describe('ReportView', { timeout: 20_000 }, () => {
  it('shows skeletons while loading', async () => {
    const { actor } = actorWith(() => new Promise<never>(() => undefined));
    await renderView(<ReportStates actor={actor} emptyReason="none">content</ReportStates>);
    expect(screen.getByLabelText('Loading report').getAttribute('aria-busy')).toBe('true');
    await renderView(<Skeleton charts={2} />);
  });

  it('says the real-time page is paused while the tab is hidden', async () => {
    const { actor, hide } = actorWith(async () => [seriesAnswer()]);
    await renderView(<LiveStatus actor={actor} />);
    await act(async () => { await new Promise((r) => setTimeout(r, 0)); hide(); });
    expect(screen.getByRole('status').textContent).toBe('Last updated 12:00:00 · Paused while this tab is hidden');
  });
});

import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { QOE_PAGE_MESSAGES as M } from '../../../common/messages/qoe';
import type { QoeViewAnswer } from '../../../common/qoe';
import { PageLogicContext } from '../../page-actors';
import { renderView, settle } from '../../test-harness/render-view';
import { fakeQoeView, viewRow } from '../../test-harness/qoe-fixtures';
import { QoeViewPage } from './QoeViewPage';

const ID = '0b6f3c2e-1111-4a4a-9b9b-000000000001';
const ANSWER: QoeViewAnswer = {
  success: true,
  view: { ...viewRow(), dimensions: [{ dimension: 'device', value: 'android', label: 'Android' }, { dimension: 'browser', value: '', label: '' }] },
  timeline: [
    { at: '2026-12-01T10:00:00.000Z', kind: 'start', playheadSeconds: 0, text: 'Started after 2,400 ms' },
    { at: '2026-12-01T10:00:10.000Z', kind: 'heartbeat', playheadSeconds: 10, text: 'Playing at 10 s' },
    { at: '2026-12-01T10:05:00.000Z', kind: 'bitrate', playheadSeconds: 300, text: 'Bitrate 2,400 → 1,100 kbps' },
    { at: '2026-12-01T10:10:00.000Z', kind: 'rebuffer', playheadSeconds: 600, text: 'Rebuffered 3 s' },
    { at: '2026-12-01T10:20:00.000Z', kind: 'end', playheadSeconds: 1190, text: 'Ended after 19 min 50 s' },
  ],
};

async function show(answer: () => QoeViewAnswer) {
  const fake = fakeQoeView(answer);
  const view = await renderView(<PageLogicContext.Provider value={{ qoeView: fake.logic }}><QoeViewPage sessionId={ID} search={{ days: 7, f: 'cdn:akamai' }} /></PageLogicContext.Provider>, { url: `/analytics/views/${ID}?days=7` });
  await settle();
  return { view, fake };
}

describe('QoeViewPage', { timeout: 20_000 }, () => {
  it("shows the view's dimensions and its timeline in words and on a strip, heartbeats left out", async () => {
    const { fake } = await show(() => ANSWER);
    expect(fake.calls).toEqual([{ sessionId: ID }]);
    expect(screen.getByRole('heading', { name: M.viewTitle })).toBeTruthy();
    expect(screen.getByTestId('view-headline').textContent).toContain('Night Drive · ann@example.test');
    const dims = screen.getByRole('heading', { name: M.dimensions }).parentElement!;
    expect(within(dims).getAllByRole('term').map((t) => t.textContent)).toEqual(['Device type', 'Browser']);
    expect(within(dims).getAllByRole('definition').map((d) => d.textContent)).toEqual(['Android', 'Not reported']);
    const items = within(screen.getByTestId('timeline')).getAllByRole('listitem').map((li) => li.textContent);
    expect(items.map((t) => t!.replace(/^[^A-Z]*/, ''))).toEqual([
      'Start: Started after 2,400 ms', 'Bitrate change: Bitrate 2,400 → 1,100 kbps', 'Rebuffer: Rebuffered 3 s', 'End: Ended after 19 min 50 s',
    ]);
    expect(screen.getByTestId('timeline-strip').children).toHaveLength(4);
    expect(screen.getByRole('link', { name: M.backToViews }).getAttribute('href')).toBe('/analytics/views?days=7&f=cdn%3Aakamai');
  });

  it('says when the view does not exist, and offers Retry when the server failed', async () => {
    await show(() => { throw Object.assign(new Error('No such view.'), { status: 404 }); });
    expect(screen.getByTestId('view-not-found').textContent).toBe(M.viewNotFound);
  });

  it('offers Retry after a failure', async () => {
    let fail = true;
    const { view } = await show(() => { if (fail) throw Object.assign(new Error('The server failed.'), { status: 502 }); return ANSWER; });
    expect(screen.getByRole('alert').textContent).toContain('The server failed.');
    fail = false;
    await view.user.click(screen.getByRole('button', { name: M.retry }));
    await settle();
    expect(screen.getByTestId('timeline')).toBeTruthy();
  });
});

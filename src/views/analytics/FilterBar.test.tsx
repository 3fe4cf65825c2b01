import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderView } from '../../test-harness/render-view';
import { FilterBar } from './FilterBar';

const NETWORKS = [{ name: 'Kids', identifier: 'kids', image: '', isActive: true, isDefault: false }];

describe('FilterBar', { timeout: 20_000 }, () => {
  it('writes every choice into the URL', async () => {
    const view = await renderView(<FilterBar path="/" search={{ days: 7 }} filters={['device', 'country']} networks={NETWORKS as never} realtime={false} pressedPreset={7} />, { url: '/?days=7' });
    // Issue 38: toggle buttons say which preset is pressed (the report machine's selectPressedPreset).
    expect(screen.getByRole('button', { name: '7 days', pressed: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: '30 days', pressed: false })).toBeTruthy();
    expect(screen.getByRole('button', { name: '90 days', pressed: false })).toBeTruthy();
    await view.user.selectOptions(screen.getByLabelText('Granularity'), 'week');
    expect(view.location()).toContain('granularity=week');
    await view.user.selectOptions(screen.getByLabelText('Network'), 'kids');
    expect(view.location()).toContain('network=kids');
    await view.user.selectOptions(screen.getByLabelText('Device'), 'ios');
    expect(view.location()).toContain('device=ios');
    await view.user.click(screen.getByRole('button', { name: '90 days' }));
    expect(view.location()).toContain('days=90');
  });

  it('a custom date replaces the preset; real-time pages offer no dates', async () => {
    const view = await renderView(<FilterBar path="/" search={{ from: '2024-05-01', to: '2024-05-20' }} filters={[]} networks={[]} realtime={false} />, { url: '/' });
    expect((screen.getByLabelText('From') as HTMLInputElement).value).toBe('2024-05-01');
    // A custom range presses no preset.
    expect(screen.queryAllByRole('button', { pressed: true })).toHaveLength(0);
    expect(screen.getAllByRole('button', { pressed: false }).map((b) => b.textContent)).toEqual(['7 days', '30 days', '90 days']);
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2024-05-10' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(view.location()).toContain('to=2024-05-10');
    view.unmount();
    await renderView(<FilterBar path="/" search={{}} filters={['device']} networks={[]} realtime />, { url: '/' });
    expect(screen.queryByLabelText('From')).toBeNull();
    expect(screen.getByLabelText('Device')).toBeTruthy();
  });

  it('offers the plans and titles of the answer, one filter at a time', async () => {
    const MONTHLY = '6f1c1b8e-5a4d-4c3b-9a2e-1d0f9e8d7c6b';
    const HARBOUR = '0b9a8c7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d';
    const loading = await renderView(<FilterBar path="/" search={{}} filters={['device', 'content', 'plan']} networks={[]} realtime={false} />, { url: '/' });
    expect((screen.getByLabelText('Plan') as HTMLSelectElement).disabled).toBe(true);
    expect(screen.getByLabelText('Title').textContent).toBe('Loading…');
    loading.unmount();

    const options = { plan: [{ value: MONTHLY, label: 'Monthly' }], content: [{ value: HARBOUR, label: 'Harbour Lights' }] };
    const view = await renderView(<FilterBar path="/" search={{ device: 'ios' }} filters={['device', 'content', 'plan']} networks={[]} realtime={false} options={options} />, { url: '/?device=ios' });
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(expect.arrayContaining(['All plans', 'Monthly', 'All titles', 'Harbour Lights']));
    await view.user.selectOptions(screen.getByLabelText('Plan'), 'Monthly');
    expect(view.location()).toContain(`plan=${MONTHLY}`);
    expect(view.location()).not.toContain('device=');
    await view.user.selectOptions(screen.getByLabelText('Title'), 'Harbour Lights');
    expect(view.location()).toContain(`content=${HARBOUR}`);
    expect(view.location()).not.toContain('plan=');
  });

  it('"Compare with" beside the range: toggle buttons for none, the previous period and a chosen one, whose days are in the address (issue 41)', async () => {
    const search = { from: '2024-05-01', to: '2024-05-10' };
    const first = await renderView(<FilterBar path="/" search={search} filters={[]} networks={[]} realtime={false} compare />, { url: '/' });
    const group = screen.getByRole('group', { name: 'Compare with' });
    expect(within(group).getAllByRole('button').map((b) => [b.textContent, b.getAttribute('aria-pressed')]))
      .toEqual([['No comparison', 'true'], ['Previous period', 'false'], ['A chosen period', 'false']]);
    expect(screen.queryByLabelText('Compared from')).toBeNull();
    // A chosen period starts as the previous one (10 days before), to be changed.
    await first.user.click(within(group).getByRole('button', { name: 'A chosen period' }));
    expect(first.location()).toBe('/?from=2024-05-01&to=2024-05-10&compare=custom&cfrom=2024-04-21&cto=2024-04-30');
    first.unmount();

    const custom = { ...search, compare: 'custom' as const, cfrom: '2024-04-21', cto: '2024-04-30' };
    const view = await renderView(<FilterBar path="/" search={custom} filters={[]} networks={[]} realtime={false} compare />, { url: '/' });
    expect(screen.getByRole('button', { name: 'A chosen period', pressed: true })).toBeTruthy();
    expect((screen.getByLabelText('Compared from') as HTMLInputElement).value).toBe('2024-04-21');
    // A day after the other end swaps the two: the fields never write a reversed period.
    fireEvent.change(screen.getByLabelText('Compared from'), { target: { value: '2024-05-02' } });
    await new Promise((r) => setTimeout(r, 0));
    expect(view.location()).toContain('cfrom=2024-04-30&cto=2024-05-02');
    await view.user.click(screen.getByRole('button', { name: 'No comparison' }));
    expect(view.location()).toBe('/?from=2024-05-01&to=2024-05-10');
    view.unmount();

    // A page that draws no comparison (real-time, breakdowns) offers none; a dropped one says why.
    await renderView(<FilterBar path="/" search={{ compareNote: 'Not applied.' }} filters={[]} networks={[]} realtime={false} />, { url: '/' });
    expect(screen.queryByRole('group', { name: 'Compare with' })).toBeNull();
    expect(screen.getByTestId('compare-note').textContent).toBe('Not applied.');
  });
});

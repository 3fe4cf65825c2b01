/**
 * The Users pages' hosts and the role check (src/views/support/support-logic.tsx): each host starts its
 * page machine with the input it is given and shares it with its children; `useCanActInSupport` is
 * true for Customer Support write or contributor only.
 */
import { screen } from '@testing-library/react';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import type { Roles } from '../../../common/contract';
import { fakeActor } from '../../../machines/test-harness/fakes';
import { selectTotal } from '../../../machines/support-search.machine';
import { selectCanAct, selectDetail } from '../../../machines/support-subscriber.machine';
import { renderView } from '../../test-harness/render-view';
import { agentSignedIn, fakeSupportLogic, SUBSCRIBER_ID } from '../../test-harness/support-fixtures';
import { SubscriberContext, SubscriberHost, SubscriberSearchContext, SubscriberSearchHost, useCanActInSupport } from './support-logic';

function CanAct() {
  return <p>{useCanActInSupport() ? 'may act' : 'read only'}</p>;
}

function SubscriberName() {
  const detail = SubscriberContext.useSelector(selectDetail);
  const canAct = SubscriberContext.useSelector(selectCanAct);
  return <p>{detail ? `${detail.profile.name} (${canAct ? 'can act' : 'cannot act'})` : 'loading'}</p>;
}

function SearchTotal() {
  const total = SubscriberSearchContext.useSelector(selectTotal);
  return <p>{total === null ? 'searching' : `${total} found`}</p>;
}

async function renderWith(roles: Roles, ui: ReactElement) {
  const fake = fakeSupportLogic();
  const view = await renderView(ui, { pages: fake.pages, actors: { auth: { readStoredSession: fakeActor(() => agentSignedIn(roles)) } } });
  return { ...fake, view };
}

describe('support-logic', () => {
  it('useCanActInSupport: write and contributor may act, read and other areas may not', async () => {
    const cases: [Roles, string][] = [
      [{ 'Customer Support': 'write' }, 'may act'],
      [{ 'Customer Support': 'contributor' }, 'may act'],
      [{ 'Customer Support': 'read' }, 'read only'],
      [{ Content: 'write' }, 'read only'],
    ];
    for (const [roles, expected] of cases) {
      const { view } = await renderWith(roles, <CanAct />);
      expect(screen.getByText(expected)).toBeTruthy();
      view.unmount();
    }
  });

  it('SubscriberHost starts the subscriber page machine with its input and shares it with its children', async () => {
    await renderWith({ 'Customer Support': 'read' }, (
      <SubscriberHost input={{ subscriberId: SUBSCRIBER_ID, canAct: false }}>
        <SubscriberName />
      </SubscriberHost>
    ));
    expect(await screen.findByText('Maria Lopez (cannot act)')).toBeTruthy();
  });

  it('SubscriberSearchHost starts the search machine, which searches once, and shares it', async () => {
    const { searches } = await renderWith({ 'Customer Support': 'read' }, (
      <SubscriberSearchHost input={{}}>
        <SearchTotal />
      </SubscriberSearchHost>
    ));
    expect(await screen.findByText('2 found')).toBeTruthy();
    expect(searches).toHaveLength(1);
  });
});

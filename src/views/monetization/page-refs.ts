/**
 * What the Monetization views share: the refs of a list page's children (read from the page machine's
 * snapshot, src/page-actors.tsx) and whether the signed-in role may edit here.
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import type { EditorMachine } from '../../../machines/editor.machine';
import type { ListMachine } from '../../../machines/list.machine';
import type { ListPageMachine } from '../../../machines/list-page.machine';
import type { PageActionMachine } from '../../../machines/page-action.machine';
import { useAppActor } from '../../app-actor';

export type EditorRef = ActorRefFrom<EditorMachine>;
export type ListRef = ActorRefFrom<ListMachine>;
export type PageActionRef = ActorRefFrom<PageActionMachine>;
export type ListPageRef = ActorRefFrom<ListPageMachine>;

export function useCanEditMonetization(): boolean {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.subscriptionsOffers));
}

/** Tells the page which record the address opens (`?edit=`); the page decides whether that changes its editor. */
export function useOpenFromAddress(page: ListPageRef, edit: string | undefined): void {
  useEffect(() => {
    page.send(edit ? { type: 'page.open', id: edit } : { type: 'page.close' });
  }, [page, edit]);
}

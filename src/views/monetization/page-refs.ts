/**
 * What the Monetization views share: the refs of a list page's children (read from the page machine's
 * snapshot, src/page-actors.tsx) and whether the signed-in role may edit here.
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { ActorRefFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import { listOffsetOf, validateListQuerySearch, type ListQuerySearch } from '../../../common/list-search';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import type { EditorMachine } from '../../../machines/editor.machine';
import { LIST_PAGE_SIZE, type ListMachine } from '../../../machines/list.machine';
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

/**
 * Where a list page's list starts (issue 38): the address's search, status and page, validated again
 * (`validateListQuerySearch`: the router keeps a value its validator drops beside the validated ones);
 * the page machine writes every later change back.
 */
export function listStartOf(raw: object, statuses: readonly string[], filters: readonly string[] = ['status']) {
  const address: ListQuerySearch = validateListQuerySearch(raw as Record<string, unknown>, statuses);
  return {
    filters: Object.fromEntries(filters.map((name) => [name, name === 'status' ? address.status ?? '' : ''])),
    ...(address.search ? { search: address.search } : {}),
    offset: listOffsetOf(address, LIST_PAGE_SIZE),
  };
}

/**
 * The actors behind the Monetization pages, made once per mounted page (or per opened record): a list
 * machine with the page's fetchPage, an editor machine with the kind's load / save / field rules and a
 * leave that returns to the list. Also whether the signed-in role may edit here.
 */
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import { editorMachine, type EditorMachine } from '../../../machines/editor.machine';
import { listMachine, selectListRows, type ListMachine } from '../../../machines/list.machine';
import { pageActionMachine, type PageActionMachine } from '../../../machines/page-action.machine';
import {
  couponExportActor, editorActors, fieldRuleImplementations, listActors, planActionActor, planGroupMoveActor, PLAN_ACTIONS, type MonetizationEditorKind,
} from '../../adapters/monetization-actors';
import type { PlanGroup } from '../../api/monetization';
import { navigateTo } from '../../adapters/navigation';
import { useAppActor } from '../../app-actor';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';

export type EditorRef = ActorRefFrom<EditorMachine>;
export type ListRef = ActorRefFrom<ListMachine>;
export type PageActionRef = ActorRefFrom<PageActionMachine>;

export function useCanEditMonetization(): boolean {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.subscriptionsOffers));
}

export function useMonetizationList(kind: keyof ReturnType<typeof listActors>, filters: Record<string, string> = {}): ListRef {
  const machine = useMemo(() => listMachine.provide({ actors: { fetchPage: listActors()[kind] } }), [kind]);
  return useActorRef(machine, { input: { filters } });
}

const PAGE_ACTIONS = {
  plans: { perform: () => planActionActor(), confirm: [PLAN_ACTIONS.delete] },
  coupons: { perform: () => couponExportActor(), confirm: [] },
  // The order moved is the one on screen: the list's rows with the versions read.
  planGroups: { perform: (list: ListRef) => planGroupMoveActor(() => selectListRows<PlanGroup>(list.getSnapshot())), confirm: [] },
} as const;

/** The page's actions outside the editor (plan delete / duplicate, coupon export, group order); the list reloads after each. */
export function useMonetizationActions(kind: keyof typeof PAGE_ACTIONS, list: ListRef): PageActionRef {
  const machine = useMemo(() => pageActionMachine.provide({
    actors: { perform: PAGE_ACTIONS[kind].perform(list) },
    actions: { performed: () => list.send({ type: 'list.reload' }) },
  }), [kind, list]);
  return useActorRef(machine, { input: { confirm: PAGE_ACTIONS[kind].confirm } });
}

/** Router history state that keeps an editor mounted when its address changes from ?edit=new to the created id. */
export interface EditorHistoryState { editorKey?: string }

/** The key of the editor shown for `edit`: the one it was opened with when a create moved it to its new id. */
export function useEditorKey(edit: string | undefined): string | undefined {
  const kept = useRouterState({ select: (s) => (s.location.state as EditorHistoryState).editorKey });
  return kept ?? edit;
}

export function useMonetizationEditor(kind: MonetizationEditorKind, id: string, route: string, list?: ListRef): EditorRef {
  const router = useRouter();
  const machine = useMemo(() => {
    const rules = fieldRuleImplementations(kind);
    return editorMachine.provide({
      actors: editorActors(kind),
      guards: rules.guards,
      actions: {
        ...rules.actions,
        leave: () => navigateTo(route),
        // A saved record changes what the list shows.
        announceSaved: () => list?.send({ type: 'list.reload' }),
        openCreated: (_, params: { id: string }) => {
          const state: EditorHistoryState = { editorKey: id };
          void router.navigate({ to: route, search: { edit: params.id }, replace: true, state: state as never });
        },
      },
    });
  }, [kind, id, route, list, router]);
  const editor = useActorRef(machine, { input: { id } });
  useEditorLeaveGuard(editor);
  return editor;
}

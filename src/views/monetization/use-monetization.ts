/**
 * The actors behind the Monetization pages, made once per mounted page (or per opened record): a list
 * machine with the page's fetchPage, an editor machine with the kind's load / save / field rules and a
 * leave that returns to the list. Also whether the signed-in role may edit here.
 */
import { useRouter } from '@tanstack/react-router';
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import { editorMachine, type EditorMachine } from '../../../machines/editor.machine';
import type { ListMachine } from '../../../machines/list.machine';
import { editorActors, fieldRuleImplementations, type MonetizationEditorKind } from '../../adapters/monetization-actors';
import { navigateTo } from '../../adapters/navigation';
import { useAppActor } from '../../app-actor';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';

export type EditorRef = ActorRefFrom<EditorMachine>;
export type ListRef = ActorRefFrom<ListMachine>;

export function useCanEditMonetization(): boolean {
  const auth = useAppActor('auth');
  return useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.subscriptionsOffers));
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
          void router.navigate({ to: route, search: { edit: params.id }, replace: true });
        },
      },
    });
  }, [kind, id, route, list, router]);
  const editor = useActorRef(machine, { input: { id } });
  useEditorLeaveGuard(editor);
  return editor;
}

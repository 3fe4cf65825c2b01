/**
 * The actors behind the AppCMS editors, made once per mounted editor: an editor machine with the
 * kind's load / save (src/adapters/appcms-actors.ts), the settings versions machine, and the page
 * actions (uploads, signing key rotation). Also the site, the current network and whether the
 * signed-in role may edit App CMS (read sees the same pages with every control disabled).
 */
import { useActorRef, useSelector } from '@xstate/react';
import { useMemo } from 'react';
import type { ActorRefFrom } from 'xstate';
import { AREAS, ROUTES } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import { editorMachine, type EditorMachine } from '../../../machines/editor.machine';
import { selectCurrentNetwork, type NetworkSnapshot } from '../../../machines/network.machine';
import { pageActionMachine, type PageActionMachine } from '../../../machines/page-action.machine';
import { versionsMachine, type VersionsMachine } from '../../../machines/versions.machine';
import { listMachine, type ListMachine } from '../../../machines/list.machine';
import { appcmsEditorActors, appcmsOverviewFetch, brandActionActor, copyPreviewFetch, rotateKeyActor, settingsVersionsActors, APPCMS_ACTIONS, type AppcmsEditorKind } from '../../adapters/appcms-actors';
import { navigateTo } from '../../adapters/navigation';
import { useAppActor } from '../../app-actor';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';

export type AppcmsEditorRef = ActorRefFrom<EditorMachine>;
export type VersionsRef = ActorRefFrom<VersionsMachine>;
export type AppcmsActionRef = ActorRefFrom<PageActionMachine>;
export type ComparisonRef = ActorRefFrom<ListMachine>;

/** What Copy from default would change on this network (brand or settings), as a list. */
export function useDefaultComparison(site: string, network: string, part: 'brand' | 'settings'): ComparisonRef {
  const machine = useMemo(() => listMachine.provide({ actors: { fetchPage: copyPreviewFetch(site, network, part) } }), [site, network, part]);
  return useActorRef(machine, { input: { limit: 100 } });
}

/** The AppCMS overview's cards (/appcms): each section's current data for the site and network, as a list. */
export function useAppcmsOverview(site: string, network: string): ComparisonRef {
  const machine = useMemo(() => listMachine.provide({ actors: { fetchPage: appcmsOverviewFetch(site, network) } }), [site, network]);
  return useActorRef(machine, { input: { limit: 10 } });
}

const selectSite = (s: NetworkSnapshot) => s.context.site ?? '';

export function useAppcmsScope() {
  const network = useAppActor('network');
  const auth = useAppActor('auth');
  const site = useSelector(network, selectSite);
  const current = useSelector(network, selectCurrentNetwork);
  const editable = useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.appCms));
  return { site, current, canEdit: editable };
}

export function useAppcmsEditor(kind: AppcmsEditorKind, site: string, id: string, onSaved?: () => void): AppcmsEditorRef {
  const machine = useMemo(() => editorMachine.provide({
    actors: appcmsEditorActors(kind, site),
    actions: { leave: () => navigateTo(ROUTES.appcms), announceSaved: () => onSaved?.() },
  }), [kind, site, onSaved]);
  const editor = useActorRef(machine, { input: { id } });
  useEditorLeaveGuard(editor);
  return editor;
}

export function useSettingsVersions(site: string, network: string, onRestored: () => void): VersionsRef {
  const machine = useMemo(() => versionsMachine.provide({
    actors: settingsVersionsActors(site, network),
    actions: { announceRestored: () => onRestored() },
  }), [site, network, onRestored]);
  return useActorRef(machine);
}

export function useBrandActions(site: string, network: string, editor: AppcmsEditorRef): AppcmsActionRef {
  const machine = useMemo(() => pageActionMachine.provide({
    actors: {
      perform: brandActionActor(site, network, (slot, url) => editor.send({ type: 'editor.change', field: slot === 'logo' ? 'logoUrl' : 'iconUrl', value: url })),
    },
  }), [site, network, editor]);
  return useActorRef(machine, { input: { confirm: [] } });
}

export function useRotateKey(site: string, onRotated: () => void): AppcmsActionRef {
  const machine = useMemo(() => pageActionMachine.provide({ actors: { perform: rotateKeyActor(site, onRotated) } }), [site, onRotated]);
  return useActorRef(machine, { input: { confirm: [APPCMS_ACTIONS.rotate] } });
}

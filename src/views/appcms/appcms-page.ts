/**
 * What the AppCMS views share: the site, the current network and whether the signed-in role may edit
 * App CMS (read sees the same pages with every control disabled), the refs of an editor page's children,
 * and the one thing a view tells its page machine about the world outside it: the network's data was
 * read again (a copy from the default), so the page opens its editor afresh (`page.reload`).
 */
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import type { ActorRefFrom } from 'xstate';
import { AREAS } from '../../../common/constants';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import type { EditorPageMachine } from '../../../machines/editor-page.machine';
import { selectCurrentNetwork, type NetworkSnapshot } from '../../../machines/network.machine';
import { useAppActor } from '../../app-actor';

export type { PageActionsRef as AppcmsActionRef, PageComparisonRef as ComparisonRef, PageEditorRef as AppcmsEditorRef } from '../../../machines/editor-page.machine';
export type EditorPageRef = ActorRefFrom<EditorPageMachine>;

const selectSite = (s: NetworkSnapshot) => s.context.site ?? '';

export function useAppcmsScope() {
  const network = useAppActor('network');
  const auth = useAppActor('auth');
  const site = useSelector(network, selectSite);
  const current = useSelector(network, selectCurrentNetwork);
  const editable = useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.appCms));
  return { site, current, canEdit: editable };
}

/** Sends `page.reload` when the network's data of this page was read again (not on the first render). */
export function useReloadOnRevision(page: EditorPageRef, revision: string): void {
  const seen = useRef(revision);
  useEffect(() => {
    if (seen.current === revision) return;
    seen.current = revision;
    page.send({ type: 'page.reload' });
  }, [page, revision]);
}

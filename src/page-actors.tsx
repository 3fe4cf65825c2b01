/**
 * Page actors (issue 26): everything a page with flow does (its list, editor, page actions, history
 * and what follows a save, a create or a restore) is one page machine in `machines/`. The view starts
 * it with `usePageActor('plans', { input })` and only reads its snapshot (context, tags, selectors) and
 * sends it events. Which logic runs, with which I/O, comes from this context:
 *
 * - in the browser, `src/main.tsx` provides `lazyPageLogic(PAGE_LOGIC_LOADERS)`: each page's logic is
 *   read from its area's wiring file (`src/adapters/<area>-actors.ts`, e.g. `monetizationPages.plans`),
 *   loaded with a dynamic import() the first time a page of the area renders (never on the sign-in
 *   page's first load); until then the page suspends like a lazy route component;
 * - in a view test, `renderView(<PlansPage />, { pages: { plans: plansPageMachine.provide({ actors: … }) } })`
 *   (src/test-harness/render-view.tsx) puts the machine with fake I/O here; no `vi.mock`.
 *
 * Session-wide actors (auth, session, network, notifier …) are not page actors: they stay children of
 * the root system, reached with `useAppActor(systemId)` (src/app-actor.tsx).
 */
import { useActorRef } from '@xstate/react';
import { createContext, use, useContext } from 'react';
import type { Actor, ActorOptions } from 'xstate';
import type { ArtworkUploadMachine } from '../machines/artwork-upload.machine';
import type { ContentCreateMachine } from '../machines/content-create.machine';
import type { EditorMachine } from '../machines/editor.machine';
import type { EditorPageMachine } from '../machines/editor-page.machine';
import type { ListMachine } from '../machines/list.machine';
import type { ListPageMachine } from '../machines/list-page.machine';
import type { MediaAssetMachine } from '../machines/media-asset.machine';
import type { ItemVideoMachine } from '../machines/media-item-video.machine';
import type { MediaLibraryMachine } from '../machines/media-library.machine';
import type { MediaPlayerMachine } from '../machines/media-player.machine';
import type { OwnSessionsMachine } from '../machines/own-sessions.machine';
import type { ReportMachine } from '../machines/report.machine';
import type { QoeAlertsMachine } from '../machines/qoe-alerts.machine';
import type { QoeAlertCountMachine } from '../machines/qoe-alert-count.machine';
import type { IngestDeadLettersMachine } from '../machines/ingest-dead-letters.machine';
import type { QoeSaveViewMachine } from '../machines/qoe-saved-view-save.machine';
import type { QoeSavedViewsMachine } from '../machines/qoe-saved-views.machine';
import type { QoeFiltersMachine } from '../machines/qoe-filters.machine';
import type { QoeViewMachine, QoeViewsMachine } from '../machines/qoe-views.machine';
import type { SetPasswordMachine } from '../machines/set-password.machine';
import type { StaffAdminAuditMachine } from '../machines/staff-admin-audit.machine';
import type { StaffAdminMachine } from '../machines/staff-admin.machine';
import type { SubscriberSearchMachine } from '../machines/support-search.machine';
import type { SubscriberMachine } from '../machines/support-subscriber.machine';
import type { TotpEnrolmentMachine } from '../machines/totp-enrolment.machine';
import { trackUnsavedEdits } from './unsaved-edits';

/**
 * Every page machine by page name. An area adds its pages here (the machine's type from `machines/`)
 * and their loaders to `PAGE_LOGIC_LOADERS` (src/adapters/page-logic.ts).
 */
export interface PageLogic {
  // Monetization (src/adapters/monetization-actors.ts)
  plans: ListPageMachine;
  offers: ListPageMachine;
  planGroups: ListPageMachine;
  coupons: ListPageMachine;
  models: EditorPageMachine;
  // AppCMS (src/adapters/appcms-actors.ts)
  appcmsBrand: EditorPageMachine;
  appcmsSettings: EditorPageMachine;
  appcmsDevices: EditorPageMachine;
  appcmsService: EditorPageMachine;
  appcmsTemplate: EditorPageMachine;
  appcmsOverview: ListMachine;
  // Admin (src/adapters/admin-actors.ts)
  staff: StaffAdminMachine;
  audit: StaffAdminAuditMachine;
  setPassword: SetPasswordMachine;
  // Customer Support (src/adapters/support-actors.ts)
  subscriberSearch: SubscriberSearchMachine;
  subscriber: SubscriberMachine;
  // Account (src/adapters/account-actors.ts)
  ownSessions: OwnSessionsMachine;
  twoFactor: TotpEnrolmentMachine;
  // Content (src/adapters/content-actors.ts)
  contentDetail: EditorPageMachine;
  contentCreate: ContentCreateMachine;
  /** Issue 29: the item page's availability panel, Content › Country groups, Content › Video licences. */
  contentAvailability: EditorMachine;
  /** Issue 38: the item page's Artwork panel. */
  contentArtwork: ArtworkUploadMachine;
  countryGroups: ListPageMachine;
  licences: ListPageMachine;
  /** Issue 40 (src/adapters/media-actors.ts): Content › Media, a video's page, the item's Video panel, the preview player. */
  mediaLibrary: MediaLibraryMachine;
  mediaAsset: MediaAssetMachine;
  mediaItemVideo: ItemVideoMachine;
  mediaPlayer: MediaPlayerMachine;
  // Analytics (src/adapters/report-actors.ts)
  report: ReportMachine;
  /** Issue 41 (src/adapters/qoe-actors.ts): the QoS pages' Add filter picker, the Views list, one view. */
  qoeFilters: QoeFiltersMachine;
  qoeViews: QoeViewsMachine;
  qoeView: QoeViewMachine;
  /** Issue 41 (src/adapters/qoe-alert-actors.ts): Alerts, the header's open incidents, Save view, Saved views. */
  qoeAlerts: QoeAlertsMachine;
  qoeAlertCount: QoeAlertCountMachine;
  qoeSaveView: QoeSaveViewMachine;
  qoeSavedViews: QoeSavedViewsMachine;
  /** Issue 42 (src/adapters/qoe-alert-actors.ts): the Alerts page's "Player events not placed" panel. */
  ingestDeadLetters: IngestDeadLettersMachine;
}

export type PageName = keyof PageLogic;

/** A page's logic, or the promise of it while its area's wiring file is loading. */
export type PageLogicMap = { [K in PageName]?: PageLogic[K] | Promise<PageLogic[K]> };

/** How the browser gets each page's logic: a dynamic import of its area's wiring file. */
export type PageLogicLoaders = { [K in PageName]?: () => Promise<PageLogic[K]> };

export const PageLogicContext = createContext<PageLogicMap | null>(null);

/**
 * The browser's map: an entry is loaded on its first read and kept (its promise, marked fulfilled once
 * loaded, so later renders read it without suspending).
 */
export function lazyPageLogic(loaders: PageLogicLoaders): PageLogicMap {
  const kept: Record<string, unknown> = {};
  const map: PageLogicMap = {};
  for (const [name, load] of Object.entries(loaders)) {
    Object.defineProperty(map, name, {
      enumerable: true,
      get: () => {
        if (!(name in kept)) {
          // The same promise stays the entry once loaded, marked fulfilled (as React's use() reads a
          // thenable), so a page calls use() on every render: a page that suspended on it and then
          // read the bare logic broke React's rule of unconditional use() (React error #520).
          const loading: Promise<unknown> = load();
          const promise: Promise<unknown> & { status?: string; value?: unknown } = loading.then((logic) => {
            Object.assign(promise, { status: 'fulfilled', value: logic });
            return logic;
          }, (error: unknown) => {
            // A failed load (offline) is tried again on the next render instead of failing for good.
            delete kept[name];
            throw error;
          });
          kept[name] = promise;
        }
        return kept[name];
      },
    });
  }
  return map;
}

/** The logic of one page from the context (suspends while its area's wiring file loads). */
export function usePageLogic<K extends PageName>(name: K): PageLogic[K] {
  const map = useContext(PageLogicContext);
  if (!map) throw new Error('usePageActor must be used inside <PageLogicContext.Provider>');
  const entry: PageLogic[K] | Promise<PageLogic[K]> | undefined = map[name];
  if (!entry) throw new Error(`No logic for the page "${String(name)}" in <PageLogicContext.Provider>`);
  return entry instanceof Promise ? use(entry) : entry;
}

/** Starts the page's machine for as long as the view is mounted (`useActorRef` over the provided logic). */
export function usePageActor<K extends PageName>(
  name: K,
  options?: ActorOptions<PageLogic[K]>,
): Actor<PageLogic[K]> {
  const logic = usePageLogic(name);
  // Every page's editors are known to the one unsaved-edits guard (reload, closing the tab; issue 28).
  const inspect = options?.inspect;
  const tracked: ActorOptions<PageLogic[K]> = {
    ...options,
    inspect: (event) => {
      trackUnsavedEdits(event);
      if (typeof inspect === 'function') inspect(event);
      else inspect?.next?.(event);
    },
  };
  return useActorRef(logic, tracked);
}

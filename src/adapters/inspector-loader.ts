/**
 * The Stately inspector is loaded with a dynamic import() only in an inspect build
 * (VITE_STATELY_INSPECT=true at build time) or under the dev server; a production build carries none
 * of its code, because the guard below is a build-time constant. Under the dev server `?inspect` in the
 * URL (or the server's STATELY_INSPECT flag) turns it on. Secrets are redacted before anything leaves.
 */
import type { InspectionEvent, Observer } from 'xstate';
import type { RuntimeConfig } from '../../common/contract';
import { redactForInspector } from '../../machines/redact';

const INSPECT_BUILD = import.meta.env.VITE_STATELY_INSPECT === 'true';

/** What an inspector is handed of one inspection event: plain data, never live actor refs. */
export interface InspectedRecord {
  type: InspectionEvent['type'];
  actorId: string;
  event?: unknown;
  snapshot?: { value?: unknown; context?: unknown; status?: string };
}

/** An inspect observer that hands every inspection event on as plain data with passwords, OTPs and tokens redacted. */
export function redactingObserver(next: (record: InspectedRecord) => void): Observer<InspectionEvent> {
  return {
    next: (inspection) => {
      const snapshot = 'snapshot' in inspection ? (inspection.snapshot as InspectedRecord['snapshot'] & object) : undefined;
      next(redactForInspector({
        type: inspection.type,
        actorId: (inspection.actorRef as { id?: string }).id ?? '',
        ...('event' in inspection ? { event: inspection.event } : {}),
        ...(snapshot ? { snapshot: { value: snapshot.value, context: snapshot.context, status: snapshot.status } } : {}),
      }));
    },
  };
}

export function inspectRequested(config: RuntimeConfig, search: string): boolean {
  return INSPECT_BUILD || config.inspect || new URLSearchParams(search).has('inspect');
}

export async function startInspectorWhenAsked(config: RuntimeConfig, search: string): Promise<Observer<InspectionEvent> | undefined> {
  if (!INSPECT_BUILD && !import.meta.env.DEV) return undefined;
  if (!inspectRequested(config, search)) return undefined;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  const inspector = createBrowserInspector({ serialize: (event) => redactForInspector(event) });
  return inspector.inspect;
}

/**
 * The History panel of every object page (issue 28): the object's revisions newest first (who, when,
 * what changed in words and values), one revision against now, and Restore after a dialog that says
 * what it will do. Restore is shown only to the write role (`canRestore` from the server); the
 * history machine (machines/history.machine.ts) holds every decision, the page machine what follows.
 *
 * `version` is the object's version in the page's editor: a restore is checked against it like a save.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { HISTORY_PANEL_MESSAGES, type Revision } from '../../../common/revisions';
import {
  selectCanRestore, selectHistorySelectedIsCreation, selectHistoryError, selectHistoryHasMore, selectHistoryItems, selectHistoryPhase, selectHistoryReadOnly,
  selectHistoryRestorable, selectHistoryRestored, selectHistorySelected, selectHistoryTotal, selectSelectedAgainstNow,
} from '../../../machines/history.machine';
import type { EditorMachine } from '../../../machines/editor.machine';
import type { PageHistoryRef } from '../../../machines/list-page.machine';
import * as ui from '../../theme/ui.css';
import * as css from './history.css';
import { Modal } from './Modal';
import { formatDateTime } from '../../../common/display-format';
import { describeChange, fieldLabel, formatValue, type LinkedNames } from './revision-text';
import { useSiteTimeZone } from './use-site-time-zone';

export interface HistoryPanelProps {
  history: PageHistoryRef;
  /** The object's version as the page's editor read it (sent with a restore). */
  version?: number;
  /** Names of the linked records the page knows (a coupon's offer, an offer's plans), by id. */
  names?: LinkedNames;
}

const NO_NAMES: LinkedNames = {};

function who(revision: Revision): string {
  return revision.actor?.username ?? HISTORY_PANEL_MESSAGES.unknownActor;
}

const EMPTY = formatValue(null);

function RevisionItem({ revision, selected, onSelect, names }: { revision: Revision; selected: boolean; onSelect: () => void; names: LinkedNames }) {
  // A creation has nothing before it, a deletion nothing after: their values read as a list, not as changes.
  const zone = useSiteTimeZone();
  const created = revision.changes.length > 0 && revision.changes.every((c) => c.before === null);
  const removed = !created && revision.changes.length > 0 && revision.changes.every((c) => c.after === null);
  return (
    <li className={selected ? css.itemSelected : css.item} data-testid={`revision-${revision.seq}`}>
      <div className={css.meta}>
        <strong>#{revision.seq}</strong>
        <span>{formatDateTime(revision.at, zone)}</span>
        <span>by {who(revision)}</span>
      </div>
      {revision.restoredFrom !== null && <div className={css.muted}>Restore of revision #{revision.restoredFrom}</div>}
      {revision.reason && revision.restoredFrom === null && <div className={css.muted}>Reason: {revision.reason}</div>}
      {created && <div className={css.muted}>Created with:</div>}
      {removed && <div className={css.muted}>Deleted; it had:</div>}
      <ul className={css.changes}>
        {created || removed
          ? revision.changes.filter((c) => formatValue(created ? c.after : c.before, c.field, zone, names) !== EMPTY)
            .map((c) => <li key={c.field}>{`${fieldLabel(c.field)}: ${formatValue(created ? c.after : c.before, c.field, zone, names)}`}</li>)
          : revision.changes.map((c) => <li key={c.field}>{describeChange(c, zone, names)}</li>)}
      </ul>
      <button type="button" className={ui.button.ghost} aria-pressed={selected} onClick={onSelect}>
        {selected ? 'Shown against now' : 'Compare with now'}
      </button>
    </li>
  );
}

export function HistoryPanel({ history, version, names = NO_NAMES }: HistoryPanelProps) {
  const phase = useSelector(history, selectHistoryPhase);
  const items = useSelector(history, selectHistoryItems);
  const total = useSelector(history, selectHistoryTotal);
  const hasMore = useSelector(history, selectHistoryHasMore);
  const error = useSelector(history, selectHistoryError);
  const restored = useSelector(history, selectHistoryRestored);
  const selected = useSelector(history, selectHistorySelected);
  const rows = useSelector(history, selectSelectedAgainstNow);
  const canRestore = useSelector(history, selectCanRestore);
  const isCreation = useSelector(history, selectHistorySelectedIsCreation);
  const readOnly = useSelector(history, selectHistoryReadOnly);
  const restorable = useSelector(history, selectHistoryRestorable);
  const send = history.send;
  const zone = useSiteTimeZone();
  const listed = phase !== 'loading' && phase !== 'loadFailed';
  const restoring = phase === 'restoring';
  const back = rows.filter((r) => r.changesOnRestore);

  return (
    <section className={css.panel} aria-label={HISTORY_PANEL_MESSAGES.title} data-testid="history-panel">
      <h2 className={css.title}>{HISTORY_PANEL_MESSAGES.title}{listed && total > 0 ? ` (${total})` : ''}</h2>
      {phase === 'loading' && <p role="status">{HISTORY_PANEL_MESSAGES.loading}</p>}
      {phase === 'loadFailed' && (
        <div className={css.bannerError} role="alert">
          <p style={{ margin: 0 }}>{error}</p>
          <button type="button" className={ui.button.secondary} onClick={() => send({ type: 'history.reload' })}>Try again</button>
        </div>
      )}
      {restored && phase !== 'loading' && (
        <p className={css.banner} role="status">
          {restored.wrote ? HISTORY_PANEL_MESSAGES.restored(restored.seq) : HISTORY_PANEL_MESSAGES.nothingRestored(restored.seq)}
        </p>
      )}
      {listed && !restorable && items.length > 0 && <p className={css.muted}>{HISTORY_PANEL_MESSAGES.notRestorable}</p>}
      {listed && restorable && readOnly && items.length > 0 && <p className={css.muted}>{HISTORY_PANEL_MESSAGES.readOnly}</p>}
      {listed && items.length === 0 && <p>{HISTORY_PANEL_MESSAGES.empty}</p>}
      {phase === 'list' && error && <p className={css.bannerError} role="alert">{error}</p>}

      {selected && (
        <div className={css.diff} data-testid="revision-diff">
          <h3 className={css.title}>Revision #{selected.seq} against now</h3>
          <div className={css.tableWrap}>
            <table className={css.table}>
              <thead>
                <tr>
                  <th className={css.headCell}>Field</th>
                  <th className={css.headCell}>Before #{selected.seq}</th>
                  <th className={css.headCell}>After #{selected.seq}</th>
                  <th className={css.headCell}>Now</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r) => (
                  <tr key={r.field}>
                    <th scope="row" className={css.fieldCell}>{fieldLabel(r.field)}</th>
                    <td className={css.cell}>{formatValue(r.before, r.field, zone, names)}</td>
                    <td className={css.cell}>{formatValue(r.after, r.field, zone, names)}</td>
                    <td className={css.cell}>{formatValue(r.now, r.field, zone, names)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {phase === 'conflict' && (
            <div className={css.bannerError} role="alert">
              <p style={{ margin: 0 }}>{error}</p>
              <div className={css.actions}>
                <button type="button" className={ui.button.primary} onClick={() => send({ type: 'history.reload' })}>Reload</button>
                <button type="button" className={ui.button.secondary} onClick={() => send({ type: 'history.dismiss' })}>Back</button>
              </div>
            </div>
          )}
          {phase === 'failed' && (
            <div className={css.bannerError} role="alert">
              <p style={{ margin: 0 }}>{error}</p>
              <button type="button" className={ui.button.secondary} onClick={() => send({ type: 'history.dismiss' })}>OK</button>
            </div>
          )}
          {isCreation && <p className={css.muted}>{HISTORY_PANEL_MESSAGES.creation}</p>}
          <div className={css.actions}>
            {canRestore && (
              <button type="button" className={ui.button.primary} disabled={restoring || phase === 'conflict'} onClick={() => send({ type: 'history.restore' })}>
                {restoring ? 'Restoring…' : `Restore the values before #${selected.seq}`}
              </button>
            )}
            <button type="button" className={ui.button.secondary} onClick={() => send({ type: 'history.close' })}>Close comparison</button>
          </div>
        </div>
      )}

      {listed && items.length > 0 && (
        <ol className={css.list} aria-label="Revisions, newest first">
          {items.map((r) => (
            <RevisionItem key={r.seq} revision={r} names={names} selected={selected?.seq === r.seq}
              onSelect={() => send(selected?.seq === r.seq ? { type: 'history.close' } : { type: 'history.select', seq: r.seq })} />
          ))}
        </ol>
      )}
      {listed && hasMore && (
        <div className={css.actions}>
          <button type="button" className={ui.button.secondary} disabled={phase === 'loadingMore'} onClick={() => send({ type: 'history.more' })}>
            {phase === 'loadingMore' ? 'Loading…' : `Load older (${items.length} of ${total} shown)`}
          </button>
        </div>
      )}

      <Modal
        open={phase === 'confirming' || restoring} title={HISTORY_PANEL_MESSAGES.confirmTitle(selected?.seq ?? 0)}
        negativeLabel="Cancel" positiveLabel={restoring ? 'Restoring…' : 'Restore'} busy={restoring} positiveDisabled={restoring}
        onNegative={() => { if (!restoring) send({ type: 'history.cancel' }); }}
        onPositive={() => send(version === undefined ? { type: 'history.confirm' } : { type: 'history.confirm', version })}
      >
        <p style={{ marginTop: 0 }}>{HISTORY_PANEL_MESSAGES.confirmBody(Math.max(back.length, 1))}</p>
        <ul className={css.changes}>
          {(back.length > 0 ? back : rows).map((r) => <li key={r.field}>{`${fieldLabel(r.field)}: ${formatValue(r.now, r.field, zone, names)} → ${formatValue(r.before, r.field, zone, names)}`}</li>)}
        </ul>
      </Modal>
    </section>
  );
}

/** The History of the record an editor shows: a restore is sent with the version that editor read. */
export function EditorHistoryPanel({ history, editor, names }: { history: PageHistoryRef; editor: ActorRefFrom<EditorMachine> | undefined; names?: LinkedNames }) {
  const version = useSelector(editor, (s) => s?.context.version);
  return <HistoryPanel history={history} {...(version === undefined ? {} : { version })} {...(names ? { names } : {})} />;
}

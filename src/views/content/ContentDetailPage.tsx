/**
 * /content/$contentType/$id (spec §2.2; no header, §2.9): one content item's fields, artwork, plays
 * and QoS of the last 30 days, and for write roles the edit form. Each visit runs its own generic
 * editor actor (machines/editor.machine.ts) over the item; the page renders its snapshot and sends
 * it events. "Back to library" goes through the editor's leave guard.
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { AREAS, REBUFFER_RATIO_BUCKETS, STARTUP_MS_BUCKETS } from '../../../common/constants';
import {
  CONTENT_CREATE_MESSAGES, CONTENT_LANGUAGES, CONTENT_RATINGS, CONTENT_STATUSES, isContentKind, type ContentDetailResponse, type ContentQosSummary,
} from '../../../common/content';
import { formatDateTime } from '../../../common/display-format';
import { CONTENT_STATUS_WORDS } from '../../../common/status-words';
import type { ContentDetailData } from '../../../machines/content-record';
import { OWN_MESSAGES } from '../../../common/messages';
import { canEdit } from '../../../common/roles';
import { selectRoles, selectSession } from '../../../machines/auth.machine';
import {
  selectCanSave, selectDraft, selectEditorData, selectEditorError, selectEditorPhase, selectIsConfirmingLeave, selectIsDirty,
  type EditorMachine,
} from '../../../machines/editor.machine';
import { selectEditorPageEditor, selectEditorPageHistory } from '../../../machines/editor-page.machine';
import { usePageActor } from '../../page-actors';
import { useAppActor } from '../../app-actor';
import { CONTENT_KIND_LABELS } from '../../config';
import { button, errorText, field, input, label } from '../../theme/ui.css';
import { EditorHistoryPanel } from '../shared/HistoryPanel';
import { LeaveQuestion } from '../shared/LeaveQuestion';
import { useEditorLeaveGuard } from '../shared/use-editor-leave-guard';
import { ContentArtwork } from './ContentArtwork';
import { ArtworkPanel } from './ArtworkPanel';
import { AvailabilityPanel } from './AvailabilityPanel';
import { ItemVideoPanel } from '../media/ItemVideoPanel';
import { catalogueFacts, ContentFamily } from './ContentFamily';
import * as own from './create.css';
import * as css from './content.css';
import { formatDuration } from './ContentLibraryPage';

type EditorRef = ActorRefFrom<EditorMachine>;

const REQUIRED = { title: 'Title', genre: 'Genre' } as const;
const numberFormat = new Intl.NumberFormat('en-US');
const percent = (ratio: number | null) => (ratio === null ? '—' : `${(ratio * 100).toFixed(ratio < 0.01 ? 2 : 1)} %`);

function bucketLabels(bounds: readonly number[], format: (n: number) => string): string[] {
  return [`< ${format(bounds[0]!)}`, ...bounds.slice(1).map((b, i) => `${format(bounds[i]!)}–${format(b)}`), `≥ ${format(bounds.at(-1)!)}`];
}
const STARTUP_LABELS = bucketLabels(STARTUP_MS_BUCKETS, (ms) => `${ms / 1000} s`);
const REBUFFER_LABELS = bucketLabels(REBUFFER_RATIO_BUCKETS, (r) => `${+(r * 100).toFixed(1)} %`);

function Histogram({ title, labels, counts }: { title: string; labels: string[]; counts: number[] }) {
  const top = Math.max(1, ...counts);
  return (
    <figure className={css.histogram} aria-label={title}>
      <figcaption className={css.statLabel}>{title}</figcaption>
      {labels.map((bucket, i) => (
        <div key={bucket} className={css.histogramRow}>
          <span>{bucket}</span>
          <div className={css.histogramTrack}><div className={css.histogramFill} style={{ width: `${((counts[i] ?? 0) / top) * 100}%` }} /></div>
          <span>{numberFormat.format(counts[i] ?? 0)}</span>
        </div>
      ))}
    </figure>
  );
}

function Stat({ value, name }: { value: string; name: string }) {
  return (
    <div className={css.stat}>
      <p className={css.statValue}>{value}</p>
      <span className={css.statLabel}>{name}</span>
    </div>
  );
}

function Facts({ detail, timeZone }: { detail: ContentDetailResponse; timeZone: unknown }) {
  const { item } = detail;
  const facts: [string, string][] = [
    ['Kind', CONTENT_KIND_LABELS[item.kind]],
    ['Status', CONTENT_STATUS_WORDS[item.status]],
    ['Genre', item.genre],
    // A series has no duration of its own; a live event may have none planned.
    ...(item.kind === 'series' ? [] : [['Duration', item.durationSeconds > 0 ? formatDuration(item.durationSeconds) : '—'] as [string, string]]),
    ['Tags', item.tags.length ? item.tags.join(', ') : '—'],
    ['Published', formatDateTime(item.publishedAt, timeZone)],
    // In the site's default time zone, as it is entered (issue 29).
    ...(item.scheduledAt ? [['Goes live', formatDateTime(item.scheduledAt, timeZone)] as [string, string]] : []),
    ...(item.seasonNumber !== null && item.episodeNumber !== null ? [['Episode', `Season ${item.seasonNumber}, episode ${item.episodeNumber}`] as [string, string]] : []),
    ...catalogueFacts(item, timeZone),
    ['Updated', formatDateTime(item.updatedAt, timeZone)],
  ];
  return (
    <dl className={css.facts}>
      {facts.map(([term, value]) => [
        <dt key={`${term}-t`} className={css.factTerm}>{term}</dt>,
        <dd key={`${term}-d`} className={css.factValue}>{value}</dd>,
      ])}
    </dl>
  );
}

function QosFigures({ qos }: { qos: ContentQosSummary }) {
  return (
    <>
      <div className={css.stats}>
        <Stat value={qos.avgStartupMs === null ? '—' : `${numberFormat.format(qos.avgStartupMs)} ms`} name="Average startup" />
        <Stat value={percent(qos.rebufferRatio)} name="Rebuffering" />
        <Stat value={percent(qos.errorRate)} name="Sessions with errors" />
        <Stat value={qos.avgBitrateKbps === null ? '—' : `${numberFormat.format(qos.avgBitrateKbps)} kbps`} name="Average bitrate" />
      </div>
      <Histogram title="Startup time (sessions)" labels={STARTUP_LABELS} counts={qos.startupHistogram} />
      <Histogram title="Rebuffer ratio (sessions)" labels={REBUFFER_LABELS} counts={qos.rebufferHistogram} />
    </>
  );
}

function Stats({ detail }: { detail: ContentDetailResponse }) {
  const { qos, playsByDay } = detail;
  const top = Math.max(1, ...playsByDay.map((d) => d.plays));
  return (
    <div className={css.sections}>
      <section className={css.section} aria-labelledby="plays-title">
        <h2 id="plays-title" className={css.sectionTitle}>Plays, last 30 days</h2>
        <div className={css.stats}>
          <Stat value={numberFormat.format(detail.item.plays30d)} name="Plays" />
        </div>
        {detail.item.plays30d > 0 ? (
          <div className={css.bars} role="img" aria-label={`Plays per day: ${playsByDay.map((d) => `${d.day} ${d.plays}`).join(', ')}`}>
            {playsByDay.map((d) => <div key={d.day} className={css.bar} style={{ height: `${(d.plays / top) * 100}%` }} title={`${d.day}: ${d.plays}`} />)}
          </div>
        ) : <p className={css.statLabel}>{OWN_MESSAGES.contentNoPlays}</p>}
      </section>
      <section className={css.section} aria-labelledby="qos-title">
        <h2 id="qos-title" className={css.sectionTitle}>Quality of service, last 30 days</h2>
        {qos.sessions === 0 ? <p className={css.statLabel}>{OWN_MESSAGES.contentNoPlays}</p> : <QosFigures qos={qos} />}
      </section>
    </div>
  );
}

/** The form's languages, with the item's own code first when the list does not name it (an import may hold any code). */
function languageOptions(current: string): [string, string][] {
  const named = Object.entries(CONTENT_LANGUAGES);
  return current && !(current in CONTENT_LANGUAGES) ? [[current, current], ...named] : named;
}

/** Where an item is scheduled (issue 38: one place, the Availability panel's "Publish at"). */
const SCHEDULE_HINTS = {
  schedule: 'To publish it later, set "Publish at" under Availability.',
  change: 'Change or cancel it under Availability.',
} as const;

const goesLiveText = (scheduledAt: string, timeZone: unknown) => `Goes live ${formatDateTime(scheduledAt, timeZone)}.`;

function EditForm({ editor, timeZone }: { editor: EditorRef; timeZone: unknown }) {
  const draft = useSelector(editor, selectDraft);
  const phase = useSelector(editor, selectEditorPhase);
  const error = useSelector(editor, selectEditorError);
  const canSave = useSelector(editor, selectCanSave);
  const dirty = useSelector(editor, selectIsDirty);
  const text = (name: string) => (typeof draft[name] === 'string' ? draft[name] : '');
  const change = (name: string) => (e: { target: { value: string } }) => editor.send({ type: 'editor.change', field: name, value: e.target.value });
  const locked = phase === 'saving' || phase === 'conflict';
  // Issue 37: what the save did besides the fields (a manual status change cancelled a pending unpublish).
  const saved = useSelector(editor, selectEditorData) as ContentDetailData | null;
  const notice = saved?.notice;
  // The saved item's go-live time, while the form still says it is scheduled.
  const scheduledAt = text('status') === 'scheduled' ? saved?.item.scheduledAt ?? null : null;

  return (
    <section className={css.section} aria-labelledby="edit-title">
      <h2 id="edit-title" className={css.sectionTitle}>Edit</h2>
      <form className={css.form} onSubmit={(e) => { e.preventDefault(); editor.send({ type: 'editor.save' }); }}>
        <label className={field}>
          <span className={label}>Title</span>
          <input className={input} value={text('title')} onChange={change('title')} disabled={locked} maxLength={200} />
        </label>
        <label className={field}>
          <span className={label}>Genre</span>
          <input className={input} value={text('genre')} onChange={change('genre')} disabled={locked} maxLength={60} />
        </label>
        <label className={`${field} ${css.wide}`}>
          <span className={label}>Description</span>
          <textarea className={input} rows={4} value={text('description')} onChange={change('description')} disabled={locked} maxLength={5000} />
        </label>
        <label className={field}>
          <span className={label}>Tags (separated by commas)</span>
          <input className={input} value={text('tags')} onChange={change('tags')} disabled={locked} />
        </label>
        <label className={field}>
          <span className={label}>Status</span>
          <select className={input} value={text('status')} onChange={change('status')} disabled={locked}>
            {/* One place schedules an item (issue 38): Availability's "Publish at". Here "Scheduled" only names
                the state of an item already scheduled; it cannot be chosen. */}
            {CONTENT_STATUSES.filter((s) => s !== 'scheduled' || text('status') === 'scheduled')
              .map((s) => <option key={s} value={s} disabled={s === 'scheduled'}>{CONTENT_STATUS_WORDS[s]}</option>)}
          </select>
        </label>
        <label className={field}>
          <span className={label}>Rating</span>
          <select className={input} value={text('rating')} onChange={change('rating')} disabled={locked}>
            {CONTENT_RATINGS.map((r) => <option key={r} value={r}>{r === 'NR' ? 'NR (not rated)' : r}</option>)}
          </select>
        </label>
        <label className={field}>
          <span className={label}>Original language</span>
          <select className={input} value={text('originalLanguage')} onChange={change('originalLanguage')} disabled={locked}>
            {languageOptions(text('originalLanguage')).map(([code, name]) => <option key={code} value={code}>{name}</option>)}
          </select>
        </label>
        <label className={field}>
          <span className={label}>Release date</span>
          <input className={input} type="date" value={text('releaseDate')} onChange={change('releaseDate')} disabled={locked} min="1888-01-01" max="9999-12-31" />
        </label>
        <p className={`${css.wide} ${label}`} data-testid="schedule-hint">
          {scheduledAt ? `${goesLiveText(scheduledAt, timeZone)} ${SCHEDULE_HINTS.change}` : SCHEDULE_HINTS.schedule}
        </p>
        {error && (
          <div className={css.notice} role="alert">
            <p className={errorText}>{error}</p>
            {phase === 'conflict' && (
              <button type="button" className={button.primary} onClick={() => editor.send({ type: 'editor.reload' })}>Reload</button>
            )}
          </div>
        )}
        <div className={css.formActions}>
          <button type="submit" className={button.primary} disabled={!canSave}>{phase === 'saving' ? 'Saving…' : 'Save'}</button>
          <button type="button" className={button.ghost} disabled={!dirty || locked} onClick={() => editor.send({ type: 'editor.discard' })}>Discard changes</button>
          {phase === 'saved' && <span className={css.savedText} role="status">{notice ? `${OWN_MESSAGES.contentSaved} ${notice}` : OWN_MESSAGES.contentSaved}</span>}
        </div>
      </form>
    </section>
  );
}

function ContentDetail({ id }: { id: string }) {
  // The `contentDetail` page machine (the editor over one item and its History) with the Content wiring file's I/O.
  const page = usePageActor('contentDetail', { input: { id, required: REQUIRED, revisions: { kind: 'content', objectId: id } } });
  const editor = useSelector(page, selectEditorPageEditor);
  const history = useSelector(page, selectEditorPageHistory);
  const auth = useAppActor('auth');
  const writable = useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.content));
  const phase = useSelector(editor, selectEditorPhase);
  const detail = useSelector(editor, selectEditorData) as ContentDetailData | null;
  const timeZone = useSelector(auth, (s) => selectSession(s)?.profile?.defaultTimezone);
  const error = useSelector(editor, selectEditorError);
  const confirmingLeave = useSelector(editor, selectIsConfirmingLeave);
  useEditorLeaveGuard(editor);
  const back = (
    <button type="button" className={`${button.ghost} ${css.backLink}`} onClick={() => editor.send({ type: 'editor.leave' })}>
      ← Back to library
    </button>
  );

  if (phase === 'loading' && !detail) {
    return <main className={css.detailPage}>{back}<p className={css.message} role="status">Loading…</p></main>;
  }
  if (phase === 'notFound') {
    return (
      <main className={css.detailPage}>
        {back}
        <h1>Content not found</h1>
        <p className={css.message} role="alert">{OWN_MESSAGES.contentNotFound}</p>
      </main>
    );
  }
  if (phase === 'loadFailed' || !detail) {
    return (
      <main className={css.detailPage}>
        {back}
        <div className={css.errorMessage} role="alert">
          <p>{error ?? OWN_MESSAGES.editorLoadFailed}</p>
          <button type="button" className={button.primary} onClick={() => editor.send({ type: 'editor.reload' })}>Try again</button>
        </div>
      </main>
    );
  }

  const { item } = detail;
  return (
    <main className={css.detailPage}>
      {back}
      <div className={css.detailHeader}>
        {/* The artwork only: a series' poster shows once, in its Poster panel below (issue 38). */}
        <div className={own.headerArt}>
          <ContentArtwork title={item.title} genre={item.genre} artworkUrl={item.artworkUrl} />
        </div>
        <div>
          <h1>{item.title}</h1>
          {item.description && <p>{item.description}</p>}
          <Facts detail={detail} timeZone={timeZone} />
        </div>
      </div>
      <ContentFamily item={item} family={detail.family} writable={writable} />
      <Stats detail={detail} />
      <div className={css.editArea}><ArtworkPanel item={item} writable={writable} itemEditor={editor} history={history} /></div>
      {/* A series' poster (issue 38): its own panel; readers see it without a control. */}
      {item.kind === 'series' && <div className={css.editArea}><ArtworkPanel slot="poster" item={item} writable={writable} itemEditor={editor} history={history} /></div>}
      <div className={css.editArea}><ItemVideoPanel item={item} writable={writable} itemEditor={editor} history={history} /></div>
      <div className={css.editArea}><AvailabilityPanel id={item.id} writable={writable} itemEditor={editor} history={history} /></div>
      {writable && <div className={css.editArea}><EditForm editor={editor} timeZone={timeZone} /></div>}
      {/* An episode's History names its series (issue 38: "Series: Ocean Tales", never "another record"). */}
      {history && <div className={css.editArea}><EditorHistoryPanel history={history} editor={editor} names={detail.family?.series ? { [detail.family.series.id]: detail.family.series.title } : {}} /></div>}
      <LeaveQuestion open={confirmingLeave} onStay={() => editor.send({ type: 'editor.leaveCancel' })} onLeave={() => editor.send({ type: 'editor.leaveConfirm' })} />
    </main>
  );
}

export function ContentDetailPage() {
  const { id, contentType } = getRouteApi('/protected/content/$contentType/$id').useParams();
  // An address naming no kind of content (`/content/anything/<id>`) is a not-found page with a way back.
  if (!isContentKind(contentType)) {
    return (
      <main className={css.detailPage}>
        <Link to="/content" className={`${button.ghost} ${css.backLink}`}>← Back to library</Link>
        <h1>Content not found</h1>
        <p className={css.message} role="alert">{CONTENT_CREATE_MESSAGES.unknownKind(contentType ?? '')}</p>
      </main>
    );
  }
  return <ContentDetail key={id ?? ''} id={id ?? ''} />;
}

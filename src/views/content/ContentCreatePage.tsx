/**
 * /content/new (issue 29; the spec's "Create New" entry, built here): a video, a series with its
 * seasons, an episode in a season of a series, or a live event, with its catalogue fields and its
 * artwork (poster 2:3, thumbnail 16:9, previewed at the sizes the apps show them). The page runs the
 * `contentCreate` page machine (machines/content-create.machine.ts); it renders its snapshot and
 * sends it events. A read-only role is offered nothing: the page says so.
 */
import { getRouteApi } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AREAS } from '../../../common/constants';
import {
  ARTWORK_SLOTS, ARTWORK_SPECS, CONTENT_CREATE_BOUNDS, CONTENT_CREATE_MESSAGES as M, CONTENT_KINDS, CONTENT_LANGUAGES, CONTENT_RATINGS,
  type ArtworkSlot, type ContentKind,
} from '../../../common/content';
import { OWN_MESSAGES } from '../../../common/messages';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import {
  selectCreateConfirmingLeave, selectCreateContext, selectCreatePhase, type CreateField,
} from '../../../machines/content-create.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import { button, errorText, field, input, label, pageTitle } from '../../theme/ui.css';
import { ArtworkImage } from './ArtworkImage';
import { LeaveQuestion } from '../shared/LeaveQuestion';
import { useLeaveGuard } from '../shared/use-editor-leave-guard';
import * as css from './content.css';
import * as own from './create.css';

const KIND_WORDS: Readonly<Record<ContentKind, string>> = { video: 'Video', series: 'Series', episode: 'Episode', live: 'Live event' };

function ContentCreateForm({ kind: initialKind, seriesId, seasonNumber }: { kind?: ContentKind; seriesId?: string; seasonNumber?: number }) {
  const page = usePageActor('contentCreate', { input: { kind: initialKind, seriesId, seasonNumber } });
  const phase = useSelector(page, selectCreatePhase);
  const ctx = useSelector(page, selectCreateContext);
  const confirmingLeave = useSelector(page, selectCreateConfirmingLeave);
  // The one leave guard (issue 38): a tab link or the back button asks first while something is typed.
  useLeaveGuard(page, { navigate: { type: 'create.navigate' }, isConfirming: selectCreateConfirmingLeave });
  const { kind, values, fieldErrors } = ctx;
  const busy = phase === 'saving' || phase === 'created';
  const change = (name: CreateField) => (e: { target: { value: string } }) => page.send({ type: 'create.change', field: name, value: e.target.value });
  const fieldError = (name: string) => fieldErrors[name] ? <p className={errorText} id={`${name}-error`} role="alert">{fieldErrors[name]}</p> : null;
  const described = (name: string) => (fieldErrors[name] ? { 'aria-invalid': true, 'aria-describedby': `${name}-error` } : {});

  if (phase === 'loading') return <p className={css.message} role="status">Loading…</p>;
  if (phase === 'loadFailed') {
    return (
      <div className={css.errorMessage} role="alert">
        <p>{ctx.error}</p>
        <button type="button" className={button.primary} onClick={() => page.send({ type: 'create.retry' })}>Try again</button>
      </div>
    );
  }

  // The message sits beside the control, outside its label (the label stays the field's name).
  const text = (name: CreateField, caption: string, extra: Record<string, unknown> = {}) => (
    <div className={field}>
      <label className={label} htmlFor={`create-${name}`}>{caption}</label>
      <input id={`create-${name}`} className={input} value={values[name]} onChange={change(name)} disabled={busy} {...described(name)} {...extra} />
      {fieldError(name)}
    </div>
  );

  return (
    <form className={css.form} noValidate onSubmit={(e) => { e.preventDefault(); page.send({ type: 'create.submit' }); }}>
      <fieldset className={`${own.kinds} ${css.wide}`}>
        <legend className={label}>Kind</legend>
        {CONTENT_KINDS.map((k) => (
          <label key={k} className={own.kindOption}>
            <input type="radio" name="kind" value={k} checked={kind === k} disabled={busy} onChange={() => page.send({ type: 'create.kind', kind: k })} />
            {KIND_WORDS[k]}
          </label>
        ))}
      </fieldset>

      {kind === 'episode' && (
        <>
          <div className={`${field} ${css.wide}`}>
            <label className={label} htmlFor="create-seriesId">Series</label>
            <select id="create-seriesId" className={input} value={values.seriesId} onChange={change('seriesId')} disabled={busy} {...described('seriesId')}>
              <option value="">{ctx.series.length ? 'Choose a series' : M.noSeries}</option>
              {ctx.series.map((s) => <option key={s.id} value={s.id}>{s.title}</option>)}
            </select>
            {fieldError('seriesId')}
          </div>
          {text('seasonNumber', 'Season', { type: 'number', min: 1, max: CONTENT_CREATE_BOUNDS.seasonNumberMax, inputMode: 'numeric' })}
          {text('episodeNumber', 'Episode number', { type: 'number', min: 1, max: CONTENT_CREATE_BOUNDS.episodeNumberMax, inputMode: 'numeric' })}
        </>
      )}

      {text('title', 'Title', { maxLength: 200 })}
      {text('genre', 'Genre', { maxLength: 60 })}
      <label className={`${field} ${css.wide}`}>
        <span className={label}>Description</span>
        <textarea className={input} rows={3} value={values.description} onChange={change('description')} disabled={busy} maxLength={5000} />
      </label>
      {text('tags', 'Tags (separated by commas)')}
      <div className={field}>
        <label className={label} htmlFor="create-rating">Rating</label>
        <select id="create-rating" className={input} value={values.rating} onChange={change('rating')} disabled={busy} {...described('rating')}>
          {CONTENT_RATINGS.map((r) => <option key={r} value={r}>{r === 'NR' ? 'Not rated' : r}</option>)}
        </select>
        {fieldError('rating')}
      </div>
      <div className={field}>
        <label className={label} htmlFor="create-originalLanguage">Original language</label>
        <select id="create-originalLanguage" className={input} value={values.originalLanguage} onChange={change('originalLanguage')} disabled={busy} {...described('originalLanguage')}>
          {Object.entries(CONTENT_LANGUAGES).map(([code, name]) => <option key={code} value={code}>{name}</option>)}
        </select>
        {fieldError('originalLanguage')}
      </div>
      {text('releaseDate', 'Release date', { type: 'date' })}
      {(kind === 'video' || kind === 'episode' || kind === 'live') &&
        text('durationMinutes', kind === 'live' ? 'Planned length (minutes, optional)' : 'Duration (minutes)', { type: 'number', min: 1, max: CONTENT_CREATE_BOUNDS.durationMaxSeconds / 60, inputMode: 'numeric' })}
      {kind === 'live' && text('startsAt', 'Starts at', { type: 'datetime-local' })}
      {kind === 'series' && text('seasons', 'Number of seasons', { type: 'number', min: 1, max: CONTENT_CREATE_BOUNDS.seasonsMax, inputMode: 'numeric' })}

      <div className={own.artworkGrid}>
        {ARTWORK_SLOTS.map((slot) => <ArtworkField key={slot} slot={slot} busy={busy || phase === 'uploading'} uploading={ctx.uploadingSlot === slot}
          url={ctx.artwork[slot]?.url ?? ''} stored={ctx.artwork[slot] ?? null} error={fieldErrors[slot] ?? null} onFile={(file) => page.send({ type: 'create.upload', slot, file })} />)}
      </div>

      {ctx.error && <div className={css.notice} role="alert"><p className={errorText}>{ctx.error}</p></div>}
      <div className={css.formActions}>
        <button type="submit" className={button.primary} disabled={busy || phase === 'uploading'}>
          {phase === 'saving' ? 'Creating…' : `Create ${KIND_WORDS[kind].toLowerCase()}`}
        </button>
        <button type="button" className={button.ghost} onClick={() => page.send({ type: 'create.cancel' })}>Cancel</button>
      </div>
      <LeaveQuestion open={confirmingLeave} onStay={() => page.send({ type: 'create.leaveCancel' })} onLeave={() => page.send({ type: 'create.leaveConfirm' })} />
    </form>
  );
}

function ArtworkField({ slot, url, stored, busy, uploading, error, onFile }: {
  slot: ArtworkSlot; url: string; stored: { width: number; height: number } | null; busy: boolean; uploading: boolean; error: string | null;
  onFile: (file: File) => void;
}) {
  const spec = ARTWORK_SPECS[slot];
  const id = `artwork-${slot}`;
  return (
    <div className={own.artworkSlot}>
      <label className={field} htmlFor={id}>
        <span className={label}>{spec.label} ({spec.ratio.join(':')}, at least {spec.minWidth} × {spec.minHeight} px, PNG or WebP)</span>
        <input id={id} type="file" accept="image/png,image/webp" disabled={busy}
          aria-invalid={error ? true : undefined} aria-describedby={error ? `${slot}-error` : undefined}
          onChange={(e) => { const file = e.target.files?.[0]; if (file) onFile(file); e.target.value = ''; }} />
      </label>
      {uploading && <p role="status">{M.uploading}</p>}
      {stored && !uploading && <p role="status">{spec.label} uploaded: {stored.width} × {stored.height} px.</p>}
      {error && <p className={errorText} id={`${slot}-error`} role="alert">{error}</p>}
      <div className={own.previews} aria-label={`${spec.label} previews`}>
        {spec.previews.map((size) => (
          <figure key={size.width} className={own.preview} style={{ margin: 0 }}>
            <ArtworkImage url={url} alt={`${spec.label} at ${size.width} × ${size.height}`} className={own.previewImage} boxClassName={own.placeholder}
              width={size.width} height={size.height} empty={size.width >= 120 ? `No ${spec.label.toLowerCase()}` : '—'} />
            <figcaption>{size.width} × {size.height}</figcaption>
          </figure>
        ))}
      </div>
    </div>
  );
}

export function ContentCreatePage() {
  const search = getRouteApi('/protected/content/new').useSearch();
  const auth = useAppActor('auth');
  const writable = useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.content));
  return (
    <main className={css.detailPage}>
      <h1 className={pageTitle}>Create content</h1>
      {writable
        ? <ContentCreateForm kind={search.kind} seriesId={search.series} seasonNumber={search.season} />
        : <p className={css.message} role="alert">{OWN_MESSAGES.contentNoEditRole}</p>}
    </main>
  );
}

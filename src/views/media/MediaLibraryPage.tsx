/**
 * Content › Media (issue 40): the site's videos, paged by the server with a search and a status filter,
 * and for a Content writer an upload of a new video (resumable, with its progress). The `mediaLibrary`
 * page machine (machines/media-library.machine.ts) with the Media wiring file's I/O decides the flow.
 */
import { Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AREAS } from '../../../common/constants';
import { MEDIA_STATUSES } from '../../../common/media-contract';
import { MEDIA_STATUS_WORDS } from '../../../common/messages/media';
import { canEdit } from '../../../common/roles';
import { selectRoles, selectSession } from '../../../machines/auth.machine';
import { selectListError, selectListIsLoading, selectListItems, selectListQuery, selectListTotal } from '../../../machines/list.machine';
import { selectMediaAsset } from '../../../machines/media-asset.machine';
import { selectLibraryUpload, selectMediaList } from '../../../machines/media-library.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import * as css from '../content/content.css';
import { durationText, resolutionText, sizeText } from './media-facts';
import { VideoLifecycle } from './VideoLifecycle';

export const MEDIA_LIBRARY_TEXT = {
  title: 'Media',
  back: '← Back to library',
  upload: 'Upload a new video',
  open: 'Open the video',
  search: 'Search by title',
  status: 'Status',
  all: 'All',
  empty: 'No videos match.',
  previous: 'Previous',
  next: 'Next',
} as const;

export function MediaLibraryPage() {
  const page = usePageActor('mediaLibrary', { input: { filters: { status: '' } } });
  const list = useSelector(page, selectMediaList);
  const upload = useSelector(page, selectLibraryUpload);
  const uploaded = useSelector(upload, selectMediaAsset);
  const uploadedId = useSelector(upload, (s) => s.context.assetId);
  const auth = useAppActor('auth');
  const writable = useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.content));
  const encodingEnabled = useSelector(auth, (s) => selectSession(s)?.encodingEnabled ?? true);
  const rows = useSelector(list, selectListItems);
  const total = useSelector(list, selectListTotal);
  const query = useSelector(list, selectListQuery);
  const error = useSelector(list, selectListError);
  const loading = useSelector(list, selectListIsLoading);

  return (
    <main className={css.detailPage}>
      <Link to="/content" className={`${ui.button.ghost} ${css.backLink}`}>{MEDIA_LIBRARY_TEXT.back}</Link>
      <h1>{MEDIA_LIBRARY_TEXT.title}</h1>
      {writable && (
        <section className={css.section} aria-labelledby="media-upload-title">
          <h2 id="media-upload-title" className={css.sectionTitle}>{MEDIA_LIBRARY_TEXT.upload}</h2>
          <VideoLifecycle asset={upload} writable encodingEnabled={encodingEnabled} />
          {uploadedId && <Link to="/content/media/$assetId" params={{ assetId: uploadedId }}>{MEDIA_LIBRARY_TEXT.open}{uploaded ? ` (${uploaded.title})` : ''}</Link>}
        </section>
      )}
      <section className={`${css.section} ${css.editArea}`} aria-labelledby="media-list-title">
        <h2 id="media-list-title" className={css.sectionTitle}>Videos ({total})</h2>
        <div className={css.toolbar}>
          <label className={css.toolbarField}>
            <span className={ui.label}>{MEDIA_LIBRARY_TEXT.search}</span>
            <input className={ui.input} type="search" value={query.search} onChange={(e) => list.send({ type: 'list.search', search: e.target.value })} />
          </label>
          <label className={css.toolbarField}>
            <span className={ui.label}>{MEDIA_LIBRARY_TEXT.status}</span>
            <select className={ui.input} value={query.filters.status ?? ''} onChange={(e) => list.send({ type: 'list.filter', name: 'status', value: e.target.value })}>
              <option value="">{MEDIA_LIBRARY_TEXT.all}</option>
              {MEDIA_STATUSES.map((s) => <option key={s} value={s}>{MEDIA_STATUS_WORDS[s]}</option>)}
            </select>
          </label>
        </div>
        {error && <p className={css.errorMessage} role="alert">{error}</p>}
        <div className={`${css.tableWrap} ${loading ? css.busy : ''}`}>
          <table className={css.table}>
            <thead>
              <tr>
                <th className={css.headCell}>Title</th>
                <th className={css.headCell}>Status</th>
                <th className={`${css.numberHeadCell} ${css.hideNarrow}`}>Duration</th>
                <th className={`${css.headCell} ${css.hideNarrow}`}>Resolution</th>
                <th className={`${css.numberHeadCell} ${css.hideNarrow}`}>Size</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((asset) => (
                <tr key={asset.id}>
                  <td className={css.cell}><Link to="/content/media/$assetId" params={{ assetId: asset.id }}>{asset.title}</Link></td>
                  <td className={css.cell}>{MEDIA_STATUS_WORDS[asset.status]}</td>
                  <td className={`${css.numberCell} ${css.hideNarrow}`}>{durationText(asset)}</td>
                  <td className={`${css.cell} ${css.hideNarrow}`}>{resolutionText(asset)}</td>
                  <td className={`${css.numberCell} ${css.hideNarrow}`}>{sizeText(asset)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        {!loading && rows.length === 0 && !error && <p className={css.message}>{MEDIA_LIBRARY_TEXT.empty}</p>}
        <div className={css.pager}>
          <button type="button" className={ui.button.ghost} disabled={query.offset === 0}
            onClick={() => list.send({ type: 'list.page', offset: Math.max(0, query.offset - query.limit) })}>{MEDIA_LIBRARY_TEXT.previous}</button>
          <span>{total === 0 ? '0' : `${query.offset + 1}–${Math.min(total, query.offset + query.limit)}`} of {total}</span>
          <button type="button" className={ui.button.ghost} disabled={query.offset + query.limit >= total}
            onClick={() => list.send({ type: 'list.page', offset: query.offset + query.limit })}>{MEDIA_LIBRARY_TEXT.next}</button>
        </div>
      </section>
    </main>
  );
}

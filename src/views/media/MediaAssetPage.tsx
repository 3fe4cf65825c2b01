/**
 * /content/media/$assetId (issue 40): one video's page: its status (the lifecycle machine, following
 * it while it is prepared), its facts (duration, resolution, renditions, size) and the preview player
 * once a rendition plays. Writers can Retry an errored video; the encrypted site's notice about DRM.
 */
import { getRouteApi, Link } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { AREAS } from '../../../common/constants';
import { MEDIA_MESSAGES } from '../../../common/messages/media';
import { canEdit } from '../../../common/roles';
import { selectRoles } from '../../../machines/auth.machine';
import { selectMediaAsset, selectMediaPhase, type MediaAssetRef } from '../../../machines/media-asset.machine';
import { useAppActor } from '../../app-actor';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import * as css from '../content/content.css';
import { mediaFacts } from './media-facts';
import { VideoLifecycle } from './VideoLifecycle';
import { VideoPlayer } from './VideoPlayer';

export function VideoFacts({ asset }: { asset: MediaAssetRef }) {
  const record = useSelector(asset, selectMediaAsset);
  if (!record) return null;
  return (
    <dl className={css.facts}>
      {mediaFacts(record).map(([term, value]) => [
        <dt key={`${term}-t`} className={css.factTerm}>{term}</dt>,
        <dd key={`${term}-d`} className={css.factValue}>{value}</dd>,
      ])}
    </dl>
  );
}

function MediaAsset({ assetId }: { assetId: string }) {
  const asset = usePageActor('mediaAsset', { input: { contentItemId: null, assetId } });
  const record = useSelector(asset, selectMediaAsset);
  const phase = useSelector(asset, selectMediaPhase);
  const auth = useAppActor('auth');
  const writable = useSelector(auth, (s) => canEdit(selectRoles(s), AREAS.content));
  const playable = record !== null && (record.status === 'viewable' || record.status === 'ready');
  return (
    <main className={css.detailPage}>
      <Link to="/content/media" className={`${ui.button.ghost} ${css.backLink}`}>← Back to Media</Link>
      <h1>{record?.title ?? (phase === 'failed' ? 'Video' : 'Loading…')}</h1>
      <div className={css.sections}>
        <section className={css.section} aria-labelledby="video-preview-title">
          <h2 id="video-preview-title" className={css.sectionTitle}>Preview</h2>
          {playable ? <VideoPlayer key={record.status} assetId={assetId} title={record.title} /> : <p className={css.message}>{MEDIA_MESSAGES.notPlayable}</p>}
        </section>
        <section className={css.section} aria-labelledby="video-facts-title">
          <h2 id="video-facts-title" className={css.sectionTitle}>Video</h2>
          {/* The page follows one stored video: a new file is uploaded from Media or an item. */}
          <VideoLifecycle asset={asset} writable={false} encodingEnabled />
          {writable && phase === 'errored' && (
            <button type="button" className={ui.button.primary} onClick={() => asset.send({ type: 'media.retry' })}>Retry</button>
          )}
          <VideoFacts asset={asset} />
          {record?.encrypted && <p>{MEDIA_MESSAGES.drmNotice}</p>}
        </section>
      </div>
    </main>
  );
}

export function MediaAssetPage() {
  const { assetId } = getRouteApi('/protected/content/media/$assetId').useParams();
  return <MediaAsset key={assetId} assetId={assetId} />;
}

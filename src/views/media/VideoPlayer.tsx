/**
 * The preview player (issue 40): the `mediaPlayer` page machine (machines/media-player.machine.ts) with
 * hls.js from the Media wiring file, loaded with this page only. The <video> is handed to the machine
 * once drawn; the rendition list (Auto or one) is the machine's; leaving the page ends the session.
 */
import { useSelector } from '@xstate/react';
import { useCallback, useEffect } from 'react';
import {
  selectPlayerChosen, selectPlayerError, selectPlayerLevel, selectPlayerLevels, selectPlayerPhase, selectPlayerPlayback, selectPlayerTime,
  selectScrubbing, selectScrubThumbnail, type MediaPlayerRef,
} from '../../../machines/media-player.machine';
import { usePageActor } from '../../page-actors';
import * as ui from '../../theme/ui.css';
import * as css from './media.css';

export const PLAYER_TEXT = {
  video: 'Preview',
  rendition: 'Rendition',
  auto: 'Auto',
  playing: 'Playing',
  retry: 'Try again',
  loading: 'Loading the player…',
  scrub: 'Position',
  thumbnail: (at: string) => `Picture at ${at}`,
} as const;

const kbps = (bitrate: number) => `${Math.round(bitrate / 1000)} kbps`;
export const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, '0')}`;

/** The preview's own scrubber: dragging shows the storyboard's thumbnail of that time and seeks there. */
function Scrubber({ player, currentTime, duration }: { player: MediaPlayerRef; currentTime: number; duration: number }) {
  const scrubbing = useSelector(player, selectScrubbing);
  const thumbnail = useSelector(player, selectScrubThumbnail);
  const end = () => player.send({ type: 'player.scrubEnd' });
  return (
    <div className={css.scrubber}>
      {thumbnail && scrubbing !== null && (
        <div role="img" aria-label={PLAYER_TEXT.thumbnail(clock(scrubbing))} data-testid="scrub-thumbnail" className={css.thumbnail}
          style={{
            width: thumbnail.width, height: thumbnail.height, backgroundImage: `url("${thumbnail.image}")`,
            backgroundPosition: `${-thumbnail.x}px ${-thumbnail.y}px`,
            left: `clamp(0px, calc(${duration > 0 ? (scrubbing / duration) * 100 : 0}% - ${thumbnail.width / 2}px), calc(100% - ${thumbnail.width}px))`,
          }} />
      )}
      <input type="range" className={css.range} aria-label={PLAYER_TEXT.scrub} min={0} max={duration > 0 ? duration : 0} step={0.1}
        value={scrubbing ?? currentTime} disabled={duration <= 0}
        onChange={(e) => player.send({ type: 'player.scrub', seconds: Number(e.target.value) })}
        onPointerUp={end} onKeyUp={end} onBlur={end} />
    </div>
  );
}

export function VideoPlayer({ assetId, title }: { assetId: string; title: string }) {
  const player = usePageActor('mediaPlayer', { input: { assetId } });
  const phase = useSelector(player, selectPlayerPhase);
  const levels = useSelector(player, selectPlayerLevels);
  const level = useSelector(player, selectPlayerLevel);
  const chosen = useSelector(player, selectPlayerChosen);
  const error = useSelector(player, selectPlayerError);
  const playback = useSelector(player, selectPlayerPlayback);
  const time = useSelector(player, selectPlayerTime);
  const mount = useCallback((element: HTMLVideoElement | null) => { if (element) player.send({ type: 'player.mount', surface: element }); }, [player]);
  useEffect(() => () => player.send({ type: 'player.leave' }), [player]);

  return (
    <div>
      {phase === 'loading' && <p role="status">{PLAYER_TEXT.loading}</p>}
      {phase === 'failed' && (
        <div role="alert">
          <p className={ui.errorText}>{error}</p>
          <button type="button" className={ui.button.primary} onClick={() => player.send({ type: 'player.retry' })}>{PLAYER_TEXT.retry}</button>
        </div>
      )}
      <video ref={mount} className={css.player} controls playsInline muted aria-label={`${PLAYER_TEXT.video}: ${title}`}
        {...(playback?.posterUrl ? { poster: playback.posterUrl } : {})} data-testid="preview-video" />
      <Scrubber player={player} currentTime={time.currentTime} duration={time.duration} />
      <div className={css.playerBar}>
        <label className={css.row}>
          <span className={ui.label}>{PLAYER_TEXT.rendition}</span>
          <select className={ui.input} value={chosen} disabled={levels.length === 0}
            onChange={(e) => player.send({ type: 'player.rendition', index: Number(e.target.value) })}>
            <option value={-1}>{PLAYER_TEXT.auto}</option>
            {levels.map((l, i) => <option key={`${l.height}-${l.bitrate}`} value={i}>{l.height}p · {kbps(l.bitrate)}</option>)}
          </select>
        </label>
        <span data-testid="preview-level">{level >= 0 && levels[level] ? `${PLAYER_TEXT.playing}: ${levels[level].height}p` : ''}</span>
        <span data-testid="preview-time">{clock(time.currentTime)} / {clock(time.duration)}</span>
      </div>
    </div>
  );
}

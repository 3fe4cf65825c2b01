/**
 * The Media pages with fake I/O for view tests (issue 40): `mediaTestPages({ loadAsset: … })` gives
 * `renderView` the four media page machines as the browser's wiring file makes them
 * (src/adapters/media-actors.ts `mediaPageLogic`), with the named actors replaced; the rest never settle
 * (an item has no video by default).
 */
import { fromCallback, fromPromise, type AnyActorLogic } from 'xstate';
import type { EngineCommand, EngineInput } from '../../machines/media-player.machine';
import { mediaPageLogic, type MediaIo } from '../adapters/media-actors';

const pending = (): AnyActorLogic => fromPromise<never, unknown>(() => new Promise<never>(() => {}));

export function mediaTestPages(fakes: Partial<Record<keyof MediaIo, AnyActorLogic>> = {}, engine?: ReturnType<typeof fromCallback<EngineCommand, EngineInput>>) {
  const io: Record<keyof MediaIo, AnyActorLogic> = {
    upload: pending(), loadAsset: pending(), retryAsset: pending(), cancelAsset: pending(), fetchPage: pending(), loadItemVideo: fromPromise(async () => ({ assetId: null })),
    loadChoices: pending(), attachVideo: pending(), addExternal: pending(), addCaptions: pending(), loadPlayback: pending(), loadStoryboard: fromPromise(async () => []),
    ...fakes,
  };
  const pages = mediaPageLogic(io);
  return { ...pages, mediaPlayer: pages.mediaPlayer.provide({ actors: { engine: engine ?? fromCallback<EngineCommand, EngineInput>(() => undefined) } }) };
}

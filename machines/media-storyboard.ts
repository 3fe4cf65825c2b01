/**
 * A video's storyboard (issue 40): the WebVTT the server writes beside the sprite (server/media-encode/
 * pictures.ts), one cue per thumbnail, `storyboard.jpg#xywh=x,y,w,h`. The preview player reads it once
 * and shows the thumbnail of the time being scrubbed to.
 */

export interface StoryboardCue {
  start: number;
  end: number;
  /** The sprite's address (relative names resolved against the VTT's own address). */
  image: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

const TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{3})$/;

function seconds(text: string): number | null {
  const match = TIME.exec(text.trim());
  if (!match) return null;
  const [, h = '0', m = '0', s = '0', ms = '0'] = match;
  return Number(h) * 3600 + Number(m) * 60 + Number(s) + Number(ms) / 1000;
}

/** An image name of the VTT resolved against its address (the token in the path stays). */
function resolve(name: string, vttUrl: string): string {
  if (/^([a-z]+:)?\/\//i.test(name) || name.startsWith('/')) return name;
  return `${vttUrl.split(/[?#]/)[0]?.replace(/[^/]*$/, '') ?? ''}${name}`;
}

/** The cues of a storyboard WebVTT; cues that cannot be read are left out (no thumbnail there). */
export function parseStoryboard(vtt: string, vttUrl: string): StoryboardCue[] {
  const cues: StoryboardCue[] = [];
  const lines = vtt.replace(/\r\n?/g, '\n').split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const timing = lines[i]?.split('-->');
    if (!timing || timing.length !== 2) continue;
    const start = seconds(timing[0] ?? '');
    const end = seconds((timing[1] ?? '').trim().split(/\s+/)[0] ?? '');
    const target = lines[i + 1]?.trim() ?? '';
    const hash = target.lastIndexOf('#xywh=');
    if (start === null || end === null || hash < 0) continue;
    const box = target.slice(hash + 6).split(',').map(Number);
    if (box.length !== 4 || box.some((n) => !Number.isFinite(n) || n < 0)) continue;
    const [x = 0, y = 0, width = 0, height = 0] = box;
    cues.push({ start, end, image: resolve(target.slice(0, hash), vttUrl), x, y, width, height });
  }
  return cues;
}

/** The thumbnail at a time: the cue that holds it, else the last one before it (null without cues). */
export function storyboardCueAt(cues: readonly StoryboardCue[], time: number): StoryboardCue | null {
  let found: StoryboardCue | null = null;
  for (const cue of cues) {
    if (cue.start <= time) found = cue;
    if (time < cue.end && cue.start <= time) return cue;
  }
  return found ?? cues[0] ?? null;
}

import { describe, expect, it } from 'vitest';
import { parseStoryboard, storyboardCueAt } from './media-storyboard';

const VTT = [
  'WEBVTT', '',
  '00:00:00.000 --> 00:00:05.000', 'storyboard.jpg#xywh=0,0,160,90', '',
  '00:00:05.000 --> 00:00:10.000', 'storyboard.jpg#xywh=160,0,160,90', '',
  '01:00:10.000 --> 01:00:15.000 align:start', 'https://cdn.example/s.jpg#xywh=0,90,160,90', '',
  '00:00:15.000 --> 00:00:20.000', 'no-box.jpg', '',
  'garbage --> 00:00:25.000', 'storyboard.jpg#xywh=0,0,1,1', '',
].join('\r\n');

describe('storyboard WebVTT (issue 40)', () => {
  it('reads each cue\'s time and box; a relative image resolves against the VTT\'s address (its token kept); unreadable cues are left out', () => {
    expect(parseStoryboard(VTT, '/v2.0/media/play/tok/a1/storyboard.vtt?x=1')).toEqual([
      { start: 0, end: 5, image: '/v2.0/media/play/tok/a1/storyboard.jpg', x: 0, y: 0, width: 160, height: 90 },
      { start: 5, end: 10, image: '/v2.0/media/play/tok/a1/storyboard.jpg', x: 160, y: 0, width: 160, height: 90 },
      { start: 3610, end: 3615, image: 'https://cdn.example/s.jpg', x: 0, y: 90, width: 160, height: 90 },
    ]);
  });

  it('finds the thumbnail of a time: the cue holding it, else the last before it, else the first', () => {
    const cues = parseStoryboard(VTT, '/s/storyboard.vtt');
    expect(storyboardCueAt(cues, 7)?.x).toBe(160);
    expect(storyboardCueAt(cues, 12)?.x).toBe(160);
    expect(storyboardCueAt(cues, 3612)?.y).toBe(90);
    expect(storyboardCueAt(cues, -1)?.start).toBe(0);
    expect(storyboardCueAt([], 3)).toBeNull();
  });
});

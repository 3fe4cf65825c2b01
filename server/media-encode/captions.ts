/**
 * Captions as the player reads them (WebVTT): a WebVTT file is checked and kept, an SRT file is
 * converted (its comma decimal marks become dots, its cue numbers stay as cue identifiers).
 */
import { MEDIA_ENCODE_MESSAGES } from '../../common/messages/media';
import { MediaInputError } from './probe';

const TIMING = /^(\d{1,}:)?(\d{1,2}):(\d{2})[,.](\d{1,3})\s*-->\s*(\d{1,}:)?(\d{1,2}):(\d{2})[,.](\d{1,3})(.*)$/;

function seconds(hours: string | undefined, minutes: string, secs: string, fraction: string): number {
  return Number(hours ? hours.slice(0, -1) : 0) * 3600 + Number(minutes) * 60 + Number(secs) + Number(fraction.padEnd(3, '0')) / 1000;
}

function vttTime(total: number): string {
  const ms = Math.round(total * 1000);
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor((ms % 3_600_000) / 60_000))}:${pad(Math.floor((ms % 60_000) / 1000))}.${pad(ms % 1000, 3)}`;
}

/** Reads a cue timing line; null when it is not one. */
function timing(line: string, lineNumber: number): { start: number; end: number; settings: string } | null {
  const match = TIMING.exec(line.trim());
  if (!match) return null;
  const [, h1, m1, s1, f1, h2, m2, s2, f2, settings] = match;
  if (m1 === undefined || s1 === undefined || f1 === undefined || m2 === undefined || s2 === undefined || f2 === undefined) return null;
  if (Number(s1) > 59 || Number(s2) > 59 || Number(m1) > 59 || Number(m2) > 59) {
    throw new MediaInputError('captions_invalid', MEDIA_ENCODE_MESSAGES.captionsBadTiming(lineNumber));
  }
  const start = seconds(h1, m1, s1, f1);
  const end = seconds(h2, m2, s2, f2);
  if (end < start) throw new MediaInputError('captions_invalid', MEDIA_ENCODE_MESSAGES.captionsEndBeforeStart(lineNumber));
  return { start, end, settings: (settings ?? '').trim() };
}

export function captionsToVtt(text: string, format: 'vtt' | 'srt'): string {
  const normalised = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  if (normalised.trim() === '') throw new MediaInputError('captions_empty', MEDIA_ENCODE_MESSAGES.captionsEmpty);
  const lines = normalised.split('\n');
  if (format === 'vtt') {
    if (!/^WEBVTT(?:[ \t].*)?$/.test(lines[0] ?? '')) throw new MediaInputError('captions_invalid', MEDIA_ENCODE_MESSAGES.captionsNotVtt);
    let cues = 0;
    lines.forEach((line, index) => {
      if (line.includes('-->')) {
        if (!timing(line, index + 1)) throw new MediaInputError('captions_invalid', MEDIA_ENCODE_MESSAGES.captionsBadTiming(index + 1));
        cues += 1;
      }
    });
    if (cues === 0) throw new MediaInputError('captions_invalid', MEDIA_ENCODE_MESSAGES.captionsNoCues);
    return normalised.endsWith('\n') ? normalised : `${normalised}\n`;
  }
  const out: string[] = ['WEBVTT', ''];
  let cues = 0;
  let index = 0;
  while (index < lines.length) {
    while (index < lines.length && (lines[index] ?? '').trim() === '') index += 1;
    if (index >= lines.length) break;
    let identifier: string | null = null;
    let line = lines[index] ?? '';
    if (!line.includes('-->')) {
      identifier = line.trim();
      index += 1;
      line = lines[index] ?? '';
    }
    const cue = timing(line, index + 1);
    if (!cue) throw new MediaInputError('captions_invalid', MEDIA_ENCODE_MESSAGES.captionsBadTiming(index + 1));
    index += 1;
    const body: string[] = [];
    while (index < lines.length && (lines[index] ?? '').trim() !== '') {
      // "-->" inside a caption's text would end the cue early in WebVTT.
      body.push((lines[index] ?? '').replace(/-->/g, '→'));
      index += 1;
    }
    if (identifier) out.push(identifier);
    out.push(`${vttTime(cue.start)} --> ${vttTime(cue.end)}${cue.settings ? ` ${cue.settings}` : ''}`, ...body, '');
    cues += 1;
  }
  if (cues === 0) throw new MediaInputError('captions_invalid', MEDIA_ENCODE_MESSAGES.captionsNoCues);
  return out.join('\n');
}

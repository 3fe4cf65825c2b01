/**
 * Checks an uploaded image by its content, never by its name: PNG and WebP by magic bytes with their
 * pixel size read from the header, SVG as text that must open with <svg and hold no script,
 * foreignObject, event handler, external reference, entity or javascript: URL (refused, not
 * rewritten). Answers the content type and extension, or the message saying why it was refused.
 */
import { APPCMS_MESSAGES, UPLOAD_LIMITS } from '../../common/appcms';

export type ImageCheck =
  | { ok: true; contentType: 'image/png' | 'image/webp' | 'image/svg+xml'; ext: 'png' | 'webp' | 'svg'; width: number; height: number }
  | { ok: false; message: string };

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 24 || !bytes.subarray(0, 8).equals(PNG_MAGIC) || bytes.toString('latin1', 12, 16) !== 'IHDR') return null;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function webpSize(bytes: Buffer): { width: number; height: number } | null {
  if (bytes.length < 30 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WEBP') return null;
  const chunk = bytes.toString('latin1', 12, 16);
  if (chunk === 'VP8 ') {
    if (bytes[23] !== 0x9d || bytes[24] !== 0x01 || bytes[25] !== 0x2a) return null;
    return { width: bytes.readUInt16LE(26) & 0x3fff, height: bytes.readUInt16LE(28) & 0x3fff };
  }
  if (chunk === 'VP8L') {
    if (bytes[20] !== 0x2f) return null;
    const bits = bytes.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    return { width: bytes.readUIntLE(24, 3) + 1, height: bytes.readUIntLE(27, 3) + 1 };
  }
  return null;
}

const UNSAFE_SVG = [
  /<\s*script/i,
  /<\s*foreignObject/i,
  /<\s*(iframe|embed|object|audio|video)\b/i,
  /\son[a-z]+\s*=/i,
  /<!ENTITY/i,
  /<!DOCTYPE/i,
  /javascript:/i,
  /data:(?!image\/(png|webp|gif|jpeg);base64,)/i,
  // Any href or url() that does not point inside the document.
  /\bhref\s*=\s*(?:"\s*(?!#)|'\s*(?!#)|(?!["'#]))/i,
  /url\(\s*(?:"\s*(?!#)|'\s*(?!#)|(?!["'#]))/i,
  /@import/i,
];

function svgSize(text: string): { width: number; height: number } | null {
  const open = /<svg\b[^>]*>/i.exec(text)?.[0];
  if (!open) return null;
  const attr = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["']\\s*([0-9.]+)(px)?\\s*["']`, 'i').exec(open)?.[1];
  const viewBox = /\sviewBox\s*=\s*["']\s*[-0-9.]+[\s,]+[-0-9.]+[\s,]+([0-9.]+)[\s,]+([0-9.]+)\s*["']/i.exec(open);
  const width = Number(attr('width') ?? viewBox?.[1]);
  const height = Number(attr('height') ?? viewBox?.[2]);
  return Number.isFinite(width) && Number.isFinite(height) ? { width: Math.round(width), height: Math.round(height) } : null;
}

function withinLimits(size: { width: number; height: number }): boolean {
  const { minPixels, maxPixels } = UPLOAD_LIMITS;
  return [size.width, size.height].every((side) => side >= minPixels && side <= maxPixels);
}

const pixelsMessage = () => APPCMS_MESSAGES.uploadPixels(UPLOAD_LIMITS.minPixels, UPLOAD_LIMITS.maxPixels);

export function checkImage(bytes: Buffer): ImageCheck {
  if (bytes.length === 0) return { ok: false, message: APPCMS_MESSAGES.uploadEmpty };
  if (bytes.length > UPLOAD_LIMITS.maxBytes) return { ok: false, message: APPCMS_MESSAGES.uploadTooLarge(UPLOAD_LIMITS.maxBytes / 1024) };
  if (bytes.subarray(0, 8).equals(PNG_MAGIC)) {
    const size = pngSize(bytes);
    if (!size) return { ok: false, message: APPCMS_MESSAGES.uploadType };
    if (!withinLimits(size)) return { ok: false, message: pixelsMessage() };
    return { ok: true, contentType: 'image/png', ext: 'png', ...size };
  }
  if (bytes.toString('latin1', 0, 4) === 'RIFF') {
    const size = webpSize(bytes);
    if (!size) return { ok: false, message: APPCMS_MESSAGES.uploadType };
    if (!withinLimits(size)) return { ok: false, message: pixelsMessage() };
    return { ok: true, contentType: 'image/webp', ext: 'webp', ...size };
  }
  const text = bytes.toString('utf8');
  if (text.includes('\uFFFD') || text.includes('\u0000')) return { ok: false, message: APPCMS_MESSAGES.uploadType };
  // An SVG opens with <svg, after an optional XML declaration, whitespace and comments.
  const body = text.replace(/^\uFEFF?\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*/, '');
  if (!/^<svg[\s>]/i.test(body) || !/<\/svg>\s*$/i.test(body)) return { ok: false, message: APPCMS_MESSAGES.uploadType };
  if (UNSAFE_SVG.some((pattern) => pattern.test(body))) return { ok: false, message: APPCMS_MESSAGES.uploadUnsafeSvg };
  const size = svgSize(body);
  if (!size || !withinLimits(size)) return { ok: false, message: pixelsMessage() };
  return { ok: true, contentType: 'image/svg+xml', ext: 'svg', ...size };
}

export const CONTENT_TYPES: Record<string, string> = { png: 'image/png', webp: 'image/webp', svg: 'image/svg+xml' };

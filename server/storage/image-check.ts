/**
 * Checks an uploaded image by its content, never by its name, and answers the bytes to store.
 *
 * PNG and WebP (told apart by their signature) are decoded by sharp (libvips): a file it cannot
 * decode is refused, the real size must be within UPLOAD_LIMITS (the decoder refuses anything over
 * maxTotalPixels before decoding it), and what is stored is the pixels re-encoded in the same
 * format without metadata: bytes after the image (an HTML polyglot), EXIF and text chunks are gone.
 * SVG is parsed as XML and sanitised (svg-check.ts); the serialised document that passed is stored.
 */
import sharp from 'sharp';
import { APPCMS_MESSAGES, UPLOAD_LIMITS } from '../../common/appcms';
import { checkSvg } from './svg-check';

type ImageCheck =
  | { ok: true; contentType: 'image/png' | 'image/webp' | 'image/svg+xml'; ext: 'png' | 'webp' | 'svg'; width: number; height: number; bytes: Buffer }
  | { ok: false; message: string };

// Decoded images are not kept in libvips' operation cache: each upload is decoded once.
sharp.cache(false);

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function withinLimits(size: { width: number; height: number }): boolean {
  const { minPixels, maxPixels } = UPLOAD_LIMITS;
  return [size.width, size.height].every((side) => Number.isFinite(side) && side >= minPixels && side <= maxPixels);
}

const pixelsMessage = () => APPCMS_MESSAGES.uploadPixels(UPLOAD_LIMITS.minPixels, UPLOAD_LIMITS.maxPixels);

/** Decodes a PNG or WebP, checks its real size and re-encodes its pixels; refuses what does not decode. */
async function checkRaster(bytes: Buffer, format: 'png' | 'webp'): Promise<ImageCheck> {
  // failOn 'error': truncated or corrupt data is refused; libpng's benign warnings (an odd ICC profile) are not.
  const input = (limitInputPixels: number | false) => sharp(bytes, { failOn: 'error', limitInputPixels });
  let width: number;
  let height: number;
  try {
    // The header alone (no pixels decoded yet), so an oversized image is told by its size.
    const meta = await input(false).metadata();
    if (meta.format !== format) return { ok: false, message: APPCMS_MESSAGES.uploadType };
    ({ width, height } = meta);
  } catch {
    return { ok: false, message: APPCMS_MESSAGES.uploadUndecodable };
  }
  if (!withinLimits({ width, height })) return { ok: false, message: pixelsMessage() };
  try {
    const image = input(UPLOAD_LIMITS.maxTotalPixels);
    const { data, info } = await (format === 'png' ? image.png() : image.webp({ quality: 90 })).toBuffer({ resolveWithObject: true });
    if (info.width !== width || info.height !== height) return { ok: false, message: APPCMS_MESSAGES.uploadUndecodable };
    return { ok: true, contentType: `image/${format}`, ext: format, width, height, bytes: data };
  } catch {
    return { ok: false, message: APPCMS_MESSAGES.uploadUndecodable };
  }
}

export async function checkImage(bytes: Buffer): Promise<ImageCheck> {
  if (bytes.length === 0) return { ok: false, message: APPCMS_MESSAGES.uploadEmpty };
  if (bytes.length > UPLOAD_LIMITS.maxBytes) return { ok: false, message: APPCMS_MESSAGES.uploadTooLarge(UPLOAD_LIMITS.maxBytes / 1024) };
  if (bytes.subarray(0, 8).equals(PNG_MAGIC)) return checkRaster(bytes, 'png');
  if (bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return checkRaster(bytes, 'webp');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: APPCMS_MESSAGES.uploadType };
  }
  // Markup holding an <svg> element; the XML parser decides the rest (svg-check.ts).
  if (text.includes('\u0000') || !/^\uFEFF?\s*</.test(text) || !/<svg[\s>]/i.test(text)) return { ok: false, message: APPCMS_MESSAGES.uploadType };
  const svg = await checkSvg(text.replace(/^\uFEFF/, ''));
  if (!svg.ok) return svg;
  if (!withinLimits(svg)) return { ok: false, message: pixelsMessage() };
  return { ok: true, contentType: 'image/svg+xml', ext: 'svg', width: svg.width, height: svg.height, bytes: Buffer.from(svg.text, 'utf8') };
}

export const CONTENT_TYPES: Record<string, string> = { png: 'image/png', webp: 'image/webp', svg: 'image/svg+xml' };

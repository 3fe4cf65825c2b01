/**
 * Serves the built SPA (dist/) with a fallback: a GET that is not an API path and accepts
 * text/html gets index.html with the runtime configuration injected as window.__CMS_CONFIG__.
 * Unknown asset paths (no text/html in Accept) stay 404.
 *
 * Compression and caching (README, Performance): the build writes `.br` and `.gz` beside every
 * asset (vite.config.ts, precompress); a request gets the best one its Accept-Encoding allows, with
 * `Vary: accept-encoding`. Hashed files under /assets are immutable for a year; everything else
 * (the logo, index.html) is revalidated: `no-cache` with an ETag, so a change shows at once.
 * index.html (with the injected config) is compressed once, in memory, at the first request.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RuntimeConfig } from '../../common/contract';
import { OWN_MESSAGES } from '../../common/messages';
import { NO_BODY, RAW_BODY, answers } from './response-schemas';

/** JSON safe inside a <script> element. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The text of the one inline script (the CSP allows exactly this text by its hash, server/http/security-headers.ts). */
export function runtimeConfigScript(config: RuntimeConfig): string {
  return `window.__CMS_CONFIG__=${scriptSafeJson(config)};`;
}

export function injectRuntimeConfig(html: string, config: RuntimeConfig): string {
  const tag = `<script>${runtimeConfigScript(config)}</script>`;
  if (html.includes('</head>')) return html.replace('</head>', `${tag}</head>`);
  return `${tag}${html}`;
}

/** Cache-Control of hashed build output (its name changes with its content). */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';
/** Cache-Control of everything else the SPA serves (index.html, the logo): revalidate by ETag. */
export const REVALIDATE_CACHE = 'no-cache';

interface IndexVariants { identity: Buffer; br: Buffer; gzip: Buffer; etag: string }

/** The encoding to send for this Accept-Encoding header: br, then gzip, else none (q=0 refuses). */
export function pickEncoding(acceptEncoding: string | string[] | undefined): 'br' | 'gzip' | undefined {
  const header = (Array.isArray(acceptEncoding) ? acceptEncoding.join(',') : acceptEncoding ?? '').toLowerCase();
  const allowed = new Set<string>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && !(q && Number(q.slice(2)) === 0)) allowed.add(name.trim());
  }
  if (allowed.has('br')) return 'br';
  if (allowed.has('gzip') || allowed.has('*')) return 'gzip';
  return undefined;
}

export async function registerSpa(app: FastifyInstance, opts: { staticDir: string; runtime: RuntimeConfig }) {
  const root = resolve(opts.staticDir);
  let cached: IndexVariants | undefined;
  const indexHtml = async (): Promise<IndexVariants> => {
    if (cached) return cached;
    const identity = Buffer.from(injectRuntimeConfig(await readFile(join(root, 'index.html'), 'utf8'), opts.runtime));
    cached = {
      identity,
      br: brotliCompressSync(identity, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzip: gzipSync(identity, { level: 9 }),
      etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
    };
    return cached;
  };

  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: true,
    preCompressed: true,
    setHeaders(reply, path) {
      reply.header('cache-control', /[\\/]assets[\\/]/.test(path) ? IMMUTABLE_CACHE : REVALIDATE_CACHE);
    },
  });

  const serveIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    let html: IndexVariants;
    try {
      html = await indexHtml();
    } catch {
      return reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
    }
    reply.code(200).header('cache-control', REVALIDATE_CACHE).header('vary', 'accept-encoding').header('etag', html.etag)
      .type('text/html; charset=utf-8');
    if (request.headers['if-none-match'] === html.etag) return reply.code(304).send();
    const encoding = pickEncoding(request.headers['accept-encoding']);
    if (encoding) return reply.header('content-encoding', encoding).send(html[encoding]);
    return reply.send(html.identity);
  };

  // index.html is sent as it is (never serialised); 304 has no body; a missing build is the usual 404.
  const indexAnswers = { schema: { response: answers({ 200: RAW_BODY, 304: NO_BODY }) } };
  app.get('/', indexAnswers, serveIndex);
  app.get('/index.html', indexAnswers, serveIndex);

  /** The not-found fallback for non-API paths. */
  return async function spaFallback(request: FastifyRequest, reply: FastifyReply) {
    const accept = String(request.headers.accept ?? '');
    if ((request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html')) return serveIndex(request, reply);
    return reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
  };
}

/**
 * Serves the built SPA (dist/) with a fallback: a GET that is not an API path and accepts
 * text/html gets index.html with the runtime configuration injected as window.__CMS_CONFIG__.
 * Unknown asset paths (no text/html in Accept) stay 404.
 */
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RuntimeConfig } from '../../common/contract';
import { OWN_MESSAGES } from '../../common/messages';

/** JSON safe inside a <script> element. */
export function scriptSafeJson(value: unknown): string {
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

export async function registerSpa(app: FastifyInstance, opts: { staticDir: string; runtime: RuntimeConfig }) {
  const root = resolve(opts.staticDir);
  let cached: string | undefined;
  const indexHtml = async () => (cached ??= injectRuntimeConfig(await readFile(join(root, 'index.html'), 'utf8'), opts.runtime));

  await app.register(fastifyStatic, {
    root,
    index: false,
    wildcard: true,
    setHeaders(reply, path) {
      if (/[\\/]assets[\\/]/.test(path)) reply.header('cache-control', 'public, max-age=31536000, immutable');
    },
  });

  const serveIndex = async (_request: FastifyRequest, reply: FastifyReply) => {
    let html: string;
    try {
      html = await indexHtml();
    } catch {
      return reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
    }
    return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
  };

  app.get('/', serveIndex);
  app.get('/index.html', serveIndex);

  /** The not-found fallback for non-API paths. */
  return async function spaFallback(request: FastifyRequest, reply: FastifyReply) {
    const accept = String(request.headers.accept ?? '');
    if ((request.method === 'GET' || request.method === 'HEAD') && accept.includes('text/html')) return serveIndex(request, reply);
    return reply.code(404).send({ success: false, message: OWN_MESSAGES.notFound });
  };
}

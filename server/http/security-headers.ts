/**
 * Response headers every answer carries, and the CSP violation report endpoint.
 *
 * The spec keeps the access token in a cookie that scripts can read, so an injected script could
 * steal it: the Content-Security-Policy is what stands between an XSS and the token. Scripts run
 * only from this origin plus the one inline script the server writes into index.html (the runtime
 * configuration, allowed by its SHA-256); no eval, no plugins, no <base>, no framing; connections
 * go only to this origin and, when configured, Firebase (or its emulator) and Google Analytics.
 * Styles keep 'unsafe-inline' (component libraries set style attributes); a style cannot run code.
 */
import { isRecord } from '../../common/one-of';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { RuntimeConfig } from '../../common/contract';
import type { ServerConfig } from '../env';
import { isApiPath } from './errors';
import { NO_BODY, answers } from './response-schemas';
import { runtimeConfigScript } from './spa';
import type { RoutePlugin } from './type-provider';

/** Where browsers send CSP violation reports (report-uri and the Reporting API's csp group). */
export const CSP_REPORT_PATH = '/v1/csp-report';

const HSTS = 'max-age=31536000; includeSubDomains';

function origin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** The Content-Security-Policy for this configuration. */
export function contentSecurityPolicy(runtime: RuntimeConfig): string {
  const inlineHash = createHash('sha256').update(runtimeConfigScript(runtime)).digest('base64');
  const scripts = ["'self'", `'sha256-${inlineHash}'`];
  const connect = ["'self'"];
  const frames: string[] = [];
  const firebase = runtime.firebase;
  if (firebase) {
    // The Firebase JS SDK: REST calls to Identity Toolkit and Secure Token, the sign-in helper
    // iframe on the auth domain, and Google's API loader for the popup flow.
    connect.push('https://identitytoolkit.googleapis.com', 'https://securetoken.googleapis.com');
    scripts.push('https://apis.google.com');
    if (firebase.authDomain) frames.push(`https://${firebase.authDomain}`);
    const emulator = firebase.emulatorUrl ? origin(firebase.emulatorUrl) : undefined;
    if (emulator) {
      connect.push(emulator);
      frames.push(emulator);
    }
  }
  if (runtime.gaMeasurementId) {
    scripts.push('https://www.googletagmanager.com');
    connect.push('https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com');
  }
  return [
    "default-src 'self'",
    `script-src ${scripts.join(' ')}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    // Issue 40: the preview player (hls.js) feeds the <video> through Media Source Extensions (a blob:
    // address) and transmuxes in a worker it starts from a blob:; the media itself comes from 'self'.
    "media-src 'self' blob:",
    "worker-src 'self' blob:",
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frames.length > 0 ? frames.join(' ') : "'none'"}`,
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
    `report-uri ${CSP_REPORT_PATH}`,
    'report-to csp',
  ].join('; ');
}

/** Installs the headers on the root instance, so every route and the not-found answers carry them. */
export function installSecurityHeaders(app: FastifyInstance, config: Pick<ServerConfig, 'production' | 'runtime'>): void {
  const csp = contentSecurityPolicy(config.runtime);
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    reply.header('content-security-policy', csp);
    reply.header('reporting-endpoints', `csp="${CSP_REPORT_PATH}"`);
    reply.header('cross-origin-opener-policy', config.runtime.firebase ? 'same-origin-allow-popups' : 'same-origin');
    if (config.production) reply.header('strict-transport-security', HSTS);
    // API answers (tokens, profiles, subscriber data) are never stored by a browser or proxy cache.
    if (isApiPath(request.url) && !reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
}

type Loose = Record<string, unknown>;

function clip(value: unknown): string | number | undefined {
  if (typeof value === 'number') return value;
  return typeof value === 'string' ? value.slice(0, 500) : undefined;
}

/** The fields worth logging from one report: report-uri's `csp-report` or a Reporting API entry. */
function violationOf(report: Loose): Record<string, string | number | undefined> {
  const entry = report['csp-report'] ?? report.body ?? report;
  const body: Loose = isRecord(entry) ? entry : {};
  return {
    documentURL: clip(body['document-uri'] ?? body.documentURL),
    directive: clip(body['effective-directive'] ?? body.effectiveDirective ?? body['violated-directive']),
    blockedURL: clip(body['blocked-uri'] ?? body.blockedURL),
    sourceFile: clip(body['source-file'] ?? body.sourceFile),
    line: clip(body['line-number'] ?? body.lineNumber),
    sample: clip(body['script-sample'] ?? body.sample),
  };
}

/** POST /v1/csp-report: logs each violation at warn level and answers 204. */
export const cspReportRoutes: RoutePlugin = async (app) => {
  app.addContentTypeParser(['application/csp-report', 'application/reports+json'], { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, body, done) => {
    try {
      done(null, JSON.parse(typeof body === 'string' ? body : body.toString('utf8')));
    } catch {
      const error = Object.assign(new Error('The body is not valid JSON.'), { statusCode: 400 });
      done(error, undefined);
    }
  });
  app.post(CSP_REPORT_PATH, {
    bodyLimit: 64 * 1024,
    schema: { body: { type: ['object', 'array'], maxItems: 100 }, response: answers({ 204: NO_BODY }) },
  }, async (request, reply) => {
    const reports = (Array.isArray(request.body) ? request.body : [request.body]).filter((r): r is Loose => typeof r === 'object' && r !== null);
    for (const report of reports) request.log.warn({ cspViolation: violationOf(report), userAgent: clip(request.headers['user-agent']) }, 'Content-Security-Policy violation');
    return reply.code(204).send(null);
  });
};

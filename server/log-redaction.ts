/**
 * What the server never writes to a log: credentials in headers, passwords, codes and tokens in
 * bodies. One list for every logger (server/main.ts in production, buildApp's `logger: true`).
 */
/** A URL with the value of every `token` query parameter (the development outbox's) replaced. */
export function redactUrl(url: string): string {
  return url.replace(/([?&]token=)[^&#]*/gi, '$1[redacted]');
}

/** Fastify's request serializer (method, url, host, remote address) with the URL's tokens redacted. */
export const LOG_SERIALIZERS = {
  req(request: { method?: string; url?: string; host?: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) {
    return { method: request.method, url: redactUrl(request.url ?? ''), host: request.host ?? request.hostname, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
  },
};

export const LOG_REDACTION = {
  paths: [
    'req.headers.authorization',
    'req.headers.xapikey',
    'req.headers["x-api-key"]',
    'req.headers.cookie',
    'req.body.password',
    'req.body.newPassword',
    'req.body.confirmPassword',
    'req.body.otp',
    'req.body.token',
    'res.body.accessToken',
  ],
  censor: '[redacted]',
};

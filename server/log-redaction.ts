/**
 * What the server never writes to a log: credentials in headers, passwords, codes and tokens in
 * bodies. One list for every logger (server/main.ts in production, buildApp's `logger: true`).
 */
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

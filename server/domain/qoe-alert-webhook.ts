/**
 * Issue 41 (qoe-alerts): the webhook of the site's alert settings. Its address must be http(s) and
 * must not reach the server's own network (SSRF, SECURITY.md "QoE alert webhooks"): a literal
 * private, loopback, link-local or otherwise reserved address, `localhost` and `*.local`/`*.internal`
 * names are refused when saved, and every delivery resolves the name itself and refuses to connect
 * when any address it resolves to is one of those (so a name re-pointed after it was saved is
 * refused too). QOE_WEBHOOK_ALLOW_PRIVATE=1 (or NODE_ENV=development) lifts this for tests and a
 * local receiver.
 *
 * A delivery is a POST of the JSON body with `x-cms-signature: t=<unix seconds>,v1=<hex HMAC-SHA256
 * of "<t>.<body>" with the site's secret>` (common/qoe.ts QOE_WEBHOOK_SIGNATURE_HEADER).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { lookup } from 'node:dns';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { QOE_ALERT_REFUSALS as M } from '../../common/messages/qoe-alert-refusals';
import { QOE_WEBHOOK_SIGNATURE_HEADER } from '../../common/qoe';

const RESERVED = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12], ['192.0.0.0', 24],
  ['192.0.2.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24], ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) RESERVED.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['64:ff9b::', 96], ['2001:db8::', 32]] as const) {
  RESERVED.addSubnet(net, bits, 'ipv6');
}

/** Whether an IP address is one a webhook may not reach (IPv4-mapped IPv6 read as its IPv4). */
export function isReservedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return RESERVED.check(mapped[1]!, 'ipv4');
  const family = isIP(address);
  if (family === 4) return RESERVED.check(address, 'ipv4');
  if (family === 6) return RESERVED.check(address, 'ipv6');
  return true;
}

const LOCAL_NAME = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i;

/** Why a webhook address is refused when saved (null: accepted). */
export function webhookRefusal(value: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return M.webhookInvalid;
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || value.length > 2000 || !url.hostname) return M.webhookInvalid;
  if (allowPrivate) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) return isReservedAddress(host) ? M.webhookPrivate : null;
  if (LOCAL_NAME.test(host) || !host.includes('.')) return M.webhookPrivate;
  return null;
}

/** The signature header's value of `body` at `t` (unix seconds). */
export function signWebhook(secret: string, body: string, t: number): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

/** A receiver's check (tests, the docs' example): the header matches the body and the secret. */
export function verifyWebhook(secret: string, body: string, header: string): boolean {
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!t || !v1) return false;
  const expected = Buffer.from(signWebhook(secret, body, Number(t)).split('v1=')[1]!, 'hex');
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}

/** A DNS look-up that refuses to hand a reserved address to the connection. */
function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = Array.isArray(addresses) ? addresses : [{ address: String(addresses), family: 4 }];
      if (!allowPrivate && list.some((a) => isReservedAddress(a.address))) return callback(new Error(M.webhookPrivate), '', 0);
      const first = list[0];
      if (!first) return callback(new Error(`no address for ${hostname}`), '', 0);
      if (options.all) return callback(null, list);
      return callback(null, first.address, first.family);
    });
  };
}

/** POSTs a signed JSON body; resolves with the status, rejects with words on a network failure or a refused address. */
export function postWebhook(url: string, body: string, secret: string, opts: { allowPrivate: boolean; timeoutMs: number; now: Date }): Promise<number> {
  const refusal = webhookRefusal(url, opts.allowPrivate);
  if (refusal) return Promise.reject(new Error(refusal));
  const target = new URL(url);
  const host = target.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !opts.allowPrivate && isReservedAddress(host)) return Promise.reject(new Error(M.webhookPrivate));
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  const t = Math.floor(opts.now.getTime() / 1000);
  return new Promise((resolve, reject) => {
    const req = send(target, {
      method: 'POST', lookup: guardedLookup(opts.allowPrivate), timeout: opts.timeoutMs,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'CMS-Tools-Alerts/1', [QOE_WEBHOOK_SIGNATURE_HEADER]: signWebhook(secret, body, t) },
    }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${opts.timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

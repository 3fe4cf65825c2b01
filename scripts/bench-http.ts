/**
 * The benches' HTTP client for POSTing event batches: node:http on keep-alive connections (as many
 * as there are requests in flight, like fetch's default pool). Issue 42: at 21,000 events/s the bench
 * client shares the machine's two cores with the server, NATS, the consumers and PostgreSQL, and
 * fetch (undici behind WHATWG streams, a Request and a Response object per call) cost about twice the
 * CPU per request of this for the same bytes on the wire.
 */
import { Agent, request } from 'node:http';

const agent = new Agent({ keepAlive: true });

/**
 * POSTs `body` (JSON, as text or already UTF-8: a body sent more than once is best encoded once, and
 * its length is then known without scanning it) and resolves with the status once the whole answer is read.
 */
export function postJson(url: string | URL, headers: Record<string, string>, body: string | Uint8Array): Promise<{ status: number; text: string }> {
  const target = typeof url === 'string' ? new URL(url) : url;
  return new Promise((resolve, reject) => {
    const req = request({
      agent, method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname + target.search,
      headers: { ...headers, 'content-length': String(typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

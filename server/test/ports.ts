/**
 * Ports for tests that start real processes (nats-server, the server itself): one that nothing listens
 * on right now, and waiting until something listens on one.
 */
import { createServer, Socket } from 'node:net';

/** A port on 127.0.0.1 that nothing listens on right now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** Resolves once something accepts connections on 127.0.0.1:`port`; throws after `timeoutMs` naming `what`. */
export async function waitForPort(port: number, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = new Socket();
      socket.once('connect', () => { socket.destroy(); resolve(true); });
      socket.once('error', () => resolve(false));
      socket.connect(port, '127.0.0.1');
    });
    if (open) return;
    if (Date.now() > deadline) throw new Error(`${what} did not listen on ${port} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

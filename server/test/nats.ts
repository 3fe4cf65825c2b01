/**
 * The NATS with JetStream the ingestion tests use (NATS_TEST_URL, default nats://127.0.0.1:4222):
 * connected once per file, failing at once with a message naming the file and what it needs.
 */
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { connect, type NatsConnection } from '@nats-io/transport-node';

export const NATS_TEST_URL = process.env.NATS_TEST_URL || 'nats://127.0.0.1:4222';

export async function connectTestJetStream(file: string): Promise<{ nc: NatsConnection; jsm: JetStreamManager }> {
  try {
    const nc = await connect({ servers: NATS_TEST_URL, maxReconnectAttempts: 0 });
    const jsm = await jetstreamManager(nc);
    await jsm.getAccountInfo();
    return { nc, jsm };
  } catch (error) {
    throw new Error(`${file} needs NATS with JetStream at ${NATS_TEST_URL} (set NATS_TEST_URL; nats-server -js): ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

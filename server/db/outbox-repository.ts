/**
 * The development SMS outbox (sms_outbox): the 'outbox' SMS transport stores messages here and
 * GET /__dev/outbox lists them.
 */
import { desc, eq } from 'drizzle-orm';
import type { OutboxMessage } from '../../common/contract';
import type { Db } from './client';
import { smsOutbox } from './schema';

export async function insertOutboxMessage(db: Db, to: string, body: string): Promise<void> {
  await db.insert(smsOutbox).values({ to, body, createdAt: new Date() });
}

/** The newest messages first, to one number or to all. */
export async function listOutbox(db: Db, to: string | undefined, limit: number): Promise<OutboxMessage[]> {
  const query = db.select().from(smsOutbox);
  const rows = await (to ? query.where(eq(smsOutbox.to, to)) : query).orderBy(desc(smsOutbox.createdAt)).limit(limit);
  return rows.map((r) => ({ id: r.id, to: r.to, body: r.body, createdAt: new Date(r.createdAt).toISOString() }));
}

/**
 * Work done after the answer is sent (SECURITY.md C-TIME-1): the SMS of forgot-password and of the
 * code resend, and the owner's notice when an account reaches its failure cap. A job starts on the
 * next turn of the event loop (setImmediate), so the answer never waits for it and takes the same
 * time whether or not an SMS goes out; a failing job is logged at error level and never reaches the
 * client. `idle()` waits for every queued job (tests, the development outbox, shutdown).
 */
export interface JobQueue {
  enqueue(name: string, run: () => Promise<unknown>): void;
  idle(): Promise<void>;
}

export function createJobQueue(log: { error(obj: unknown, msg?: string): void }): JobQueue {
  const pending = new Set<Promise<void>>();
  return {
    enqueue(name, run) {
      const job: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(run)
        .then(() => undefined, (error: unknown) => {
          log.error({ job: name, err: error instanceof Error ? error.message : String(error) }, 'background job failed');
        })
        .finally(() => pending.delete(job));
      pending.add(job);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}

// The replies a runtime's parse pool waits for (runtimes/node/parse-pool.ts, runtimes/browser/
// parse-pool.ts): one promise per request id, settled by the worker's reply, all rejected at once
// when the worker fails or the pool closes (the indexer then parses those files in-thread). Owns
// only that bookkeeping; starting workers and messages are the runtimes'.
import type { PoolResult } from './prepare.ts';

export type PoolReply = { id: number; result: PoolResult } | { id: number; error: string };

export class PendingReplies {
  private readonly pending = new Map<number, { resolve: (r: PoolResult) => void; reject: (e: Error) => void }>();
  private seq = 0;
  private failed: Error | null = null;

  /** A new request: `send` posts it with its id; rejects at once after a failure. */
  request(send: (id: number) => void): Promise<PoolResult> {
    if (this.failed) return Promise.reject(this.failed);
    const id = ++this.seq;
    return new Promise<PoolResult>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      try {
        send(id);
      } catch (e) {
        this.pending.delete(id);
        reject(e instanceof Error ? e : new Error(String(e)));
      }
    });
  }

  settle(m: PoolReply): void {
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    if ('error' in m) p.reject(new Error(m.error));
    else p.resolve(m.result);
  }

  /** The first failure sticks: every waiting and later request rejects with it. */
  fail(e: Error): void {
    this.failed ??= e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }
}

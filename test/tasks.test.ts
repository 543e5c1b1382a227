// The platform-free background task registry (core/tasks.ts): ids, the state machine, one run at a
// time in order, coalescing of waiting requests, progress, cancellation, errors and retention.
// @lane unit
import { describe, it, expect } from 'vitest';
import { TaskRegistry } from '../core/tasks.ts';

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms));

/** A task body the test finishes by hand. */
function manual<R>() {
  let resolve!: (v: R) => void;
  let reject!: (e: unknown) => void;
  let signal!: AbortSignal;
  let progress!: (p: unknown) => void;
  let started = false;
  const run = (ctx: { signal: AbortSignal; progress: (p: unknown) => void }) => {
    started = true;
    signal = ctx.signal;
    progress = ctx.progress;
    return new Promise<R>((res, rej) => {
      resolve = res;
      reject = rej;
      ctx.signal.addEventListener('abort', () => rej(Object.assign(new Error('stopped'), { code: 'cancelled' })));
    });
  };
  return { run, resolve: (v: R) => resolve(v), reject: (e: unknown) => reject(e), get started() { return started; }, get signal() { return signal; }, progress: (p: unknown) => progress(p) };
}

describe('TaskRegistry', () => {
  it('runs a task in the background and keeps its result', async () => {
    const reg = new TaskRegistry();
    const m = manual<{ n: number }>();
    const { task, coalesced } = reg.submit({ kind: 'reindex', params: { full: false }, run: m.run });
    expect(coalesced).toBe(false);
    expect(task.task_id).toMatch(/^t1-[0-9a-z]+$/);
    expect(task.state).toBe('running');
    expect(m.started).toBe(false); // work starts on a later tick: submit never blocks
    await tick();
    expect(m.started).toBe(true);
    m.progress({ files_done: 3 });
    expect(reg.get(task.task_id)!.progress).toEqual({ files_done: 3 });
    m.resolve({ n: 7 });
    const final = await reg.settled(task.task_id);
    expect(final).toMatchObject({ state: 'done', result: { n: 7 } });
    expect(final!.finished_at).toBeTruthy();
    expect(final!.took_ms).toBeGreaterThanOrEqual(0);
    expect(reg.current()).toBeNull();
  });

  it('runs one task at a time in order, and coalesces equal waiting requests', async () => {
    const reg = new TaskRegistry();
    const a = manual<string>();
    const b = manual<string>();
    const ta = reg.submit({ kind: 'k', params: 1, coalesceKey: 'inc', run: a.run }).task;
    const tb = reg.submit({ kind: 'k', params: 2, coalesceKey: 'inc', run: b.run }).task;
    // A running task is never joined (a change after it started could be missed); a queued one is.
    expect(tb.task_id).not.toBe(ta.task_id);
    expect(tb.state).toBe('queued');
    const tc = reg.submit({ kind: 'k', params: 3, coalesceKey: 'inc', run: () => Promise.resolve('c') });
    expect(tc).toMatchObject({ coalesced: true, task: { task_id: tb.task_id } });
    expect(reg.active().map((t) => t.state)).toEqual(['running', 'queued']);
    await tick();
    expect(b.started).toBe(false);
    a.resolve('a');
    await reg.settled(ta.task_id);
    await tick();
    expect(b.started).toBe(true);
    b.resolve('b');
    expect(await reg.settled(tb.task_id)).toMatchObject({ state: 'done', result: 'b' });
    expect(reg.list().map((t) => t.task_id)).toEqual([tb.task_id, ta.task_id]);
  });

  it('cancels queued tasks at once and running ones through their signal', async () => {
    const reg = new TaskRegistry();
    const a = manual<string>();
    const ta = reg.submit({ kind: 'k', params: null, run: a.run }).task;
    const tb = reg.submit({ kind: 'k', params: null, run: () => Promise.resolve('never') }).task;
    expect(reg.cancel(tb.task_id)).toMatchObject({ state: 'cancelled', cancel_requested: true });
    await tick();
    const c = reg.cancel(ta.task_id)!;
    expect(c).toMatchObject({ state: 'running', cancel_requested: true });
    expect(a.signal.aborted).toBe(true);
    expect(await reg.settled(ta.task_id)).toMatchObject({ state: 'cancelled', error: { code: 'cancelled' } });
    expect(reg.cancel('t99-none')).toBeNull();
    // Cancelling a finished task changes nothing.
    expect(reg.cancel(ta.task_id)!.state).toBe('cancelled');
  });

  it('records failures with their code and hint, and waits with a bound', async () => {
    const reg = new TaskRegistry();
    const { task } = reg.submit({ kind: 'k', params: null, run: async () => { throw Object.assign(new Error('busy'), { code: 'index_busy', hint: 'wait' }); } });
    expect(await reg.settled(task.task_id)).toMatchObject({ state: 'failed', error: { code: 'index_busy', message: 'busy', hint: 'wait' } });
    const plain = reg.submit({ kind: 'k', params: null, run: async () => { throw new Error('boom'); } }).task;
    expect((await reg.settled(plain.task_id))!.error).toEqual({ code: 'internal', message: 'boom' });
    const slow = manual<string>();
    const s = reg.submit({ kind: 'k', params: null, run: slow.run }).task;
    const t0 = Date.now();
    const snap = await reg.waitFor(s.task_id, 50);
    expect(snap!.state).toBe('running');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(40);
    const seen: string[] = [];
    const unsub = reg.subscribe(s.task_id, (t) => seen.push(t.state));
    slow.resolve('x');
    await reg.settled(s.task_id);
    unsub();
    expect(seen).toContain('done');
  });

  it('keeps only the newest finished tasks and refuses work after shutdown', async () => {
    const reg = new TaskRegistry({ keepFinished: 3 });
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(reg.submit({ kind: 'k', params: i, run: async () => i }).task.task_id);
    await reg.settled(ids[5]);
    expect(reg.list().map((t) => t.task_id)).toEqual(ids.slice(3).reverse());
    const m = manual<string>();
    const run = reg.submit({ kind: 'k', params: null, run: m.run }).task;
    await tick();
    await reg.shutdown(1000);
    expect(reg.get(run.task_id)!.state).toBe('cancelled');
    expect(() => reg.submit({ kind: 'k', params: null, run: async () => 1 })).toThrow(/shut down/);
  });
});

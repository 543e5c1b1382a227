// When the browser Worker warms an open workspace's search (runtimes/browser/idle-work.ts): after it
// opens, once no call has come for a moment, files decoded a slice at a time and then searches typed
// ahead (the first keystrokes then find the session warm); once the
// page has searched, a search typed ahead (10–30 ms) only after a pause longer than the gap between two
// typed keys — one started between keystrokes makes the next keystroke wait for it — while the short
// gaps get 6 ms slices of files decoded. Through a real workspace on disk, the real WASM SQLite and the
// real warm-up steps (warm-up.ts, watched); the Worker's clock is vitest's (no waiting on wall time):
// what is checked is which steps have run by a given point of the page's calls.
// @lane unit
import { describe, it, expect, afterEach, vi } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { IdleWork } from '../runtimes/browser/idle-work.ts';
import type { Session, WorkerSessions } from '../runtimes/browser/sessions.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

// The real clock's timer, kept before the test fakes it: a step's own work (opening the searcher reads the
// disk) finishes on real time, which a loaded machine stretches past what the fake clock lets pass.
const realSetTimeout = globalThis.setTimeout;
const realPause = (ms: number) => new Promise((r) => realSetTimeout(r, ms));

// The real warm-up steps, watched: when each ran, and whether it could search ahead.
const calls: Array<{ at: number; searches: boolean; typed?: string }> = [];
vi.mock('../runtimes/browser/warm-up.ts', async (original) => {
  const real = await original<typeof import('../runtimes/browser/warm-up.ts')>();
  return {
    ...real,
    warmStep: async (...a: Parameters<typeof real.warmStep>) => {
      const call: (typeof calls)[number] = { at: Date.now(), searches: a[2]?.searches !== false };
      calls.push(call);
      const step = await real.warmStep(...a);
      call.typed = step.typed;
      return step;
    },
  };
});

describe('the Worker’s idle warm-up', () => {
  let ws: TmpWorkspace | undefined;
  const open: HciWorkspace[] = [];
  let stop = async () => {};
  afterEach(async () => {
    const stopped = stop(); // its timer is cleared now, on the clock that set it
    vi.useRealTimers();
    // A step that was running when the warm-up stopped ends before the workspace closes.
    await stopped;
    for (const w of open.splice(0)) w.close();
    await ws?.cleanup();
    ws = undefined;
  });

  it('steps soon after a call while nothing was searched, files first; once the page searches, searches ahead only after a pause longer than typing leaves', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/Order${i}.cs`] = `namespace Shop;\n\npublic class OrderStep${i}\n{\n    public decimal Total${i}(decimal p) => p * ${i + 1};\n}\n`;
    ws = await createTmpWorkspace(files);
    const w = await openWorkspace(ws.root);
    open.push(w);
    await w.index();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const session = { key: 'k', name: 'shop', logs: {}, svc: { workspace: async () => w, indexing: () => false } } as unknown as Session;
    let closed = false;
    const sessions = { idle: false, current: (s: Session) => s === session && !closed } as unknown as WorkerSessions;
    const idle = new IdleWork(sessions, undefined);
    stop = async () => {
      closed = true;
      await idle.stop(session);
    };
    // Run the timers due within `ms` (vitest's clock), letting each step finish before the next timer.
    const pass = async (ms: number) => {
      for (let t = 0; t < ms; t += 10) await vi.advanceTimersByTimeAsync(10);
    };
    const searchesSince = (t: number) => calls.filter((c) => c.at >= t && c.searches).length;

    // Opened, nothing searched yet (a status call answered): the warm-up starts within a typist's gap,
    // with a slice of files decoded (the searches typed ahead follow the files).
    calls.length = 0;
    const t0 = Date.now();
    idle.after(session, true, undefined, 'status');
    await vi.advanceTimersToNextTimerAsync();
    expect(calls).toHaveLength(1);
    expect(calls[0].typed, 'a slice of files first, no search typed ahead').toBeUndefined();
    expect(calls[0].at - t0).toBeLessThan(150);

    // The page searches (a keystroke): between keys ~110–300 ms apart no search is typed ahead (files
    // left would be decoded a slice at a time).
    for (let k = 0; k < 5; k++) {
      const at = Date.now();
      idle.after(session, false, undefined, 'search');
      await pass(300);
      expect(searchesSince(at + 1), `a search typed ahead ran within 300 ms of keystroke ${k + 1}`).toBe(0);
    }
    expect(calls.filter((c) => c.typed), 'no search typed ahead between the keys').toEqual([]);
    // Nor after the page's own calls while typing pauses (the whole page, the filter counts).
    const pause = Date.now();
    idle.after(session, false, undefined, 'facets');
    await pass(300);
    expect(searchesSince(pause + 1)).toBe(0);
    // A real pause: the searches typed ahead go on. The steps before them may wait on real work the fake
    // clock does not wait for (on a loaded machine no step had even ended by 4.4 s of the fake clock), so
    // real time passes between slices of the pause; what is checked is that they come, not when.
    await pass(400);
    for (let i = 0; i < 100 && searchesSince(pause + 1) === 0; i++) {
      await realPause(20);
      await pass(100);
    }
    expect(searchesSince(pause + 1)).toBeGreaterThan(0);
  });
});

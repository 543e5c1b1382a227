// When the browser Worker warms an open workspace's search (runtimes/browser/idle-work.ts): after it
// opens, once no call has come for a moment (the first keystrokes then find the session warm); once the
// page has searched, only after a pause longer than the gap between two typed keys — a warm-up step
// that starts between keystrokes makes the next keystroke wait for it. Through a real workspace on
// disk, the real WASM SQLite and the real warm-up steps; the Worker's clock is vitest's (no waiting on
// wall time): what is checked is which steps have run by a given point of the page's calls.
// @lane unit
import { describe, it, expect, afterEach, vi } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { IdleWork } from '../runtimes/browser/idle-work.ts';
import type { Session, WorkerSessions } from '../runtimes/browser/sessions.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

describe('the Worker’s idle warm-up', () => {
  let ws: TmpWorkspace | undefined;
  const open: HciWorkspace[] = [];
  let stop = () => {};
  afterEach(async () => {
    stop();
    vi.useRealTimers();
    // A step that was running when the warm-up stopped ends before the workspace closes.
    await new Promise((r) => setTimeout(r, 50));
    for (const w of open.splice(0)) w.close();
    await ws?.cleanup();
    ws = undefined;
  });

  it('steps soon after a call while nothing was searched; once the page searches, only after a pause longer than typing leaves', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 12; i++) files[`src/Order${i}.cs`] = `namespace Shop;\n\npublic class OrderStep${i}\n{\n    public decimal Total${i}(decimal p) => p * ${i + 1};\n}\n`;
    ws = await createTmpWorkspace(files);
    const w = await openWorkspace(ws.root);
    open.push(w);
    await w.index();
    // A warm-up step begins by asking the session for its workspace (then a search typed ahead, or a
    // slice of files decoded): count the steps begun.
    let steps = 0;
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const session = { key: 'k', name: 'shop', logs: {}, svc: { workspace: async () => (steps++, w), indexing: () => false } } as unknown as Session;
    let closed = false;
    const sessions = { idle: false, current: (s: Session) => s === session && !closed } as unknown as WorkerSessions;
    const idle = new IdleWork(sessions, undefined);
    stop = () => {
      closed = true;
      idle.stop(session);
    };
    // Run the timers due within `ms` (vitest's clock), letting each step finish before the next timer.
    const pass = async (ms: number) => {
      for (let t = 0; t < ms; t += 10) await vi.advanceTimersByTimeAsync(10);
    };
    // Opened, nothing searched yet (a status call answered): the warm-up starts within a typist's gap.
    const t0 = Date.now();
    idle.after(session, true, undefined, 'status');
    await vi.advanceTimersToNextTimerAsync();
    expect(steps).toBe(1);
    expect(Date.now() - t0).toBeLessThan(150);

    // The page searches (a keystroke): keys ~110–300 ms apart never let a step in between them.
    for (let k = 0; k < 5; k++) {
      idle.after(session, false, undefined, 'search');
      const before = steps;
      await pass(300);
      expect(steps, `a warm-up step ran 300 ms after keystroke ${k + 1}`).toBe(before);
    }
    // Nor after the page's own calls while typing pauses (the whole page, the filter counts).
    idle.after(session, false, undefined, 'facets');
    const beforePause = steps;
    await pass(300);
    expect(steps).toBe(beforePause);
    // A real pause: the warm-up goes on.
    await pass(400);
    expect(steps).toBeGreaterThan(beforePause);
  });
});

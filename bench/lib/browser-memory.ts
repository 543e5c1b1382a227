// Memory of a Chromium the bench launched, read from /proc (Linux): its processes are the browser
// (found by its --user-data-dir) and every process below it; a renderer holds a tab with its
// dedicated Workers (the hci Worker and its parse worker included), so its RSS is what the tab costs
// (JS heaps, WASM memories, the DOM, its share of Chromium's code). Sampled every `everyMs`; each
// process's kernel high-water mark (VmHWM) is read too, so a peak between two samples is not missed.
// Owns finding the processes, sampling and the per-phase peaks; what runs in the tab is the bench's.
import * as fs from 'node:fs';
import type { CDPSession } from 'playwright-core';

export interface ProcessPeak {
  pid: number;
  /** Chromium's --type (renderer, gpu-process, utility, zygote; renderer-webui: its own UI's), or `browser`. */
  type: string;
  /** The kernel's peak RSS of the process (VmHWM), MB. */
  hwm_mb: number;
  /** Per phase: the highest RSS sampled while it ran, MB. */
  phases: Record<string, number>;
}

export interface BrowserMemoryReport {
  sample_ms: number;
  samples: number;
  processes: ProcessPeak[];
  /** The renderer with the highest peak: the measured tab. */
  tab: ProcessPeak | null;
  /** The highest sum of every process's RSS in one sample, MB (shared pages counted once per process). */
  total_peak_mb: number;
}

const mb = (kb: number) => Math.round((kb / 1024) * 10) / 10;

function readStatus(pid: number): { rssKb: number; hwmKb: number; ppid: number } | null {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const num = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(s)?.[1] ?? NaN);
    return { rssKb: num('VmRSS'), hwmKb: num('VmHWM'), ppid: num('PPid') };
  } catch {
    return null; // gone meanwhile
  }
}

function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
  } catch {
    return '';
  }
}

/** The pids of the browser started with `userDataDir` and of every process under it. */
function browserTree(userDataDir: string): Map<number, string> {
  const pids = fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d)).map(Number);
  const parent = new Map<number, number>();
  let root = -1;
  for (const pid of pids) {
    const st = readStatus(pid);
    if (!st) continue;
    parent.set(pid, st.ppid);
    if (root < 0) {
      const cmd = cmdline(pid);
      if (cmd.includes(`--user-data-dir=${userDataDir}`) && !/\s--type=/.test(cmd)) root = pid;
    }
  }
  const out = new Map<number, string>();
  if (root < 0) return out;
  out.set(root, 'browser');
  for (const pid of parent.keys()) {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) {
      if (p === root) {
        // Headless Chromium keeps a renderer for its own WebUI (--top-chrome-webui, ~150 MB): not a tab.
        const cmd = cmdline(pid);
        out.set(pid, `${/--type=([\w-]+)/.exec(cmd)?.[1] ?? 'other'}${cmd.includes('--top-chrome-webui') ? '-webui' : ''}`);
        break;
      }
    }
  }
  return out;
}

export interface BrowserMemorySampler {
  /** Starts a phase: peaks sampled from now on count for it (until the next phase). */
  phase(name: string): void;
  stop(): BrowserMemoryReport;
}

/** Samples the memory of the Chromium started with `userDataDir` (null when /proc is not there). */
export function sampleBrowserMemory(userDataDir: string, everyMs = 250): BrowserMemorySampler | null {
  if (!fs.existsSync('/proc/self/status')) return null;
  const procs = new Map<number, ProcessPeak>();
  let current = 'start';
  let samples = 0;
  let totalPeakKb = 0;
  let tree = new Map<number, string>();
  let lastTree = 0;
  const sample = () => {
    // Processes come and go (a renderer per site, utility processes): the tree is looked up again every 2 s.
    if (Date.now() - lastTree > 2000 || !tree.size) {
      tree = browserTree(userDataDir);
      lastTree = Date.now();
    }
    let total = 0;
    for (const [pid, type] of tree) {
      const st = readStatus(pid);
      if (!st || !Number.isFinite(st.rssKb)) continue;
      total += st.rssKb;
      let p = procs.get(pid);
      if (!p) procs.set(pid, (p = { pid, type, hwm_mb: 0, phases: {} }));
      p.hwm_mb = Math.max(p.hwm_mb, mb(st.hwmKb));
      p.phases[current] = Math.max(p.phases[current] ?? 0, mb(st.rssKb));
    }
    totalPeakKb = Math.max(totalPeakKb, total);
    samples++;
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    phase(name) {
      sample();
      current = name;
    },
    stop() {
      sample();
      clearInterval(timer);
      const processes = [...procs.values()].sort((a, b) => b.hwm_mb - a.hwm_mb);
      return { sample_ms: everyMs, samples, processes, tab: processes.find((p) => p.type === 'renderer') ?? null, total_peak_mb: mb(totalPeakKb) };
    },
  };
}

export interface WorkerMemory {
  url: string;
  /** The Worker's JS heap (V8's used and total), MB. */
  js_used_mb: number;
  js_total_mb: number;
}

/**
 * The page's dedicated Workers, reached through CDP (auto-attached, non-flat sessions over the page's
 * session): `measure()` reads each one's JS heap (Runtime.getHeapUsage). Their WASM memories are not
 * on it (Runtime.queryObjects over WebAssembly.Memory.prototype crashed the tab, Chromium of
 * 2026-12), nor is the parse worker (a Worker's Worker): both show in the renderer's RSS only.
 */
export async function pageWorkers(cdp: CDPSession): Promise<{ measure(): Promise<WorkerMemory[]> }> {
  const workers = new Map<string, string>();
  const pending = new Map<number, (m: { result?: Record<string, unknown>; error?: { message: string } }) => void>();
  let nextId = 1;
  cdp.on('Target.attachedToTarget', (e: { sessionId: string; targetInfo: { type: string; url: string } }) => {
    if (e.targetInfo.type === 'worker') workers.set(e.sessionId, e.targetInfo.url);
  });
  cdp.on('Target.detachedFromTarget', (e: { sessionId: string }) => workers.delete(e.sessionId));
  cdp.on('Target.receivedMessageFromTarget', (e: { message: string }) => {
    const m = JSON.parse(e.message) as { id?: number };
    if (m.id !== undefined) pending.get(m.id)?.(m as never), pending.delete(m.id);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  const call = async (sessionId: string, method: string, params: object = {}): Promise<Record<string, unknown>> => {
    const id = nextId++;
    // A Worker that goes away (a reload, a crash) never answers: 30 s, then it counts as gone.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const answer = new Promise<{ result?: Record<string, unknown>; error?: { message: string } }>((resolve) => {
      pending.set(id, resolve);
      timer = setTimeout(() => (pending.delete(id), resolve({ error: { message: 'no answer within 30 s' } })), 30_000);
    });
    await cdp.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method, params }) });
    const m = await answer;
    clearTimeout(timer);
    if (m.error) throw new Error(`${method}: ${m.error.message}`);
    return m.result ?? {};
  };
  const mbOf = (b: unknown) => Math.round((Number(b) / 1048576) * 10) / 10;
  return {
    async measure() {
      const out: WorkerMemory[] = [];
      for (const [sid, url] of workers) {
        try {
          const heap = await call(sid, 'Runtime.getHeapUsage');
          out.push({ url, js_used_mb: mbOf(heap.usedSize), js_total_mb: mbOf(heap.totalSize) });
        } catch {
          // gone meanwhile (a reload)
        }
      }
      return out;
    },
  };
}

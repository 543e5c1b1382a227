// Multi-process safety with real processes: while a child `hci index` (the compiled CLI) rebuilds the
// index, this process searches and reads through the product. Every answer must be a committed
// state (FTS rows one to one with chunks, generations never going back, hits that resolve), and no
// reader waits past the lock timeout (a hang bound only: how long readers wait is a bench figure,
// bench/latency.ts; the design target is < 250 ms per wait).
// Also: a second indexer is refused with "index busy" (exit 4), a lock left by a dead process is
// recovered, and a live holder that never lets go makes readers fail cleanly after lock_timeout_ms.
// @lane slow
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IndexStore } from '../core/index/store.ts';
import { loadEngine } from '../core/sqlite/engine.ts';
import type { SearchResponse } from '../core/search/contract.ts';
import { createNodeIndexStorage, openWorkspace } from '../runtimes/node/index.ts';
import { generateWorkspace, mutateWorkspace, type GeneratedWorkspace } from './helpers/generate-workspace.ts';
import { ensureBuilt, indexCounts, lockState, REPO, runCli, sqliteText, startCli, startScript, type CliProcess, type CliResult } from './helpers/hci-process.ts';

const SEED = 77;
const FILES = 600;
const MIN_SAMPLES = 200;
/** A reader gives up with index_busy after lock_timeout_ms (default 10 s): a wait past that plus a margin is a hang. */
const MAX_READER_WAIT_MS = 10_000 + 20_000;

let ws: GeneratedWorkspace;
let known: string[];
const sleepers: ChildProcess[] = [];

const hciDir = () => path.join(ws.root, '.hci');
const dbPath = () => path.join(hciDir(), 'index.sqlite');
const dbLockPath = () => `${dbPath()}.lock`;
const indexerLockPath = () => path.join(hciDir(), 'indexer.lock');

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.floor(s.length / 2)] : 0;
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(s.length * p))] : 0;
};

function startSleeper(): ChildProcess {
  const c = spawn('sleep', ['60'], { stdio: 'ignore' });
  sleepers.push(c);
  return c;
}

const BOOT_ID = (() => {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
})();

/** Start time of a process in clock ticks since boot (Linux /proc), as DotLock records it. */
function startTicks(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
  } catch {
    return null;
  }
}

/** A lock file as DotLock writes it, naming `pid` on this host (boot id and start time where Linux has them). */
function writeLock(file: string, pid: number, over: Record<string, unknown> = {}): void {
  const owner: Record<string, unknown> = { pid, host: os.hostname(), token: `test-${pid}`, acquired_at: Date.now() - 1000 };
  if (BOOT_ID) owner.boot = BOOT_ID;
  const start = startTicks(pid);
  if (start !== null) owner.start = start;
  writeFileSync(file, JSON.stringify({ ...owner, ...over }));
}

async function waitFor(cond: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

beforeAll(async () => {
  ensureBuilt();
  ws = generateWorkspace({ files: FILES, seed: SEED });
  known = [...ws.paths];
  const r = await runCli(['index', ws.root, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}, 240_000);

afterAll(() => {
  for (const s of sleepers) s.kill('SIGKILL');
  if (ws) rmSync(ws.root, { recursive: true, force: true });
});

describe('concurrency: one writer process, readers in another', () => {
  it(`serves ≥ ${MIN_SAMPLES} searches and snapshots from committed states while hci index rewrites the index`, async () => {
    const root = ws.root;
    const engine = await loadEngine();
    const store = await IndexStore.open(createNodeIndexStorage(root), engine, { create: false, lockTimeoutMs: 10_000 });
    const w = await openWorkspace(root);
    const queries = [...ws.probes.map((p) => p.query), 'InvalidOperationException ledger', 'Region eu-west Enabled', 'reserve stock', 'PageTitle', 'CancellationToken quota', 'LoadParcelAsync', 'onclick Approve'];

    // The writer: --full rebuilds, alternating with incremental runs after edits/additions/deletions.
    const runs: CliResult[] = [];
    let writer: CliProcess;
    let round = 0;
    const startWriter = () => {
      const full = runs.length % 2 === 0;
      if (!full) mutateWorkspace(root, SEED, ++round, known, { edit: 150, add: 40, remove: 20 });
      writer = startCli(['index', root, '--quiet', ...(full ? ['--full'] : [])]);
    };

    const snapshotWaits: number[] = [];
    const searchTimes: number[] = [];
    let searches = 0;
    let snapshots = 0;
    let busy = 0;
    let explained = 0;
    let staleExplains = 0;
    let vanishedHits = 0;
    let freshOpens = 0;
    let lastGen = -1;
    const seen = (gen: number, where: string) => {
      expect(gen, `generation went back at ${where}`).toBeGreaterThanOrEqual(lastGen);
      lastGen = gen;
    };
    const checkResponse = (r: SearchResponse, q: string) => {
      if (r.status === 'error' && r.error?.code === 'index_busy') {
        busy++;
        return false;
      }
      expect(['ok', 'empty', 'indexing'], `${q}: ${JSON.stringify(r.error)}`).toContain(r.status);
      seen(r.index!.generation, `search "${q}"`);
      return true;
    };

    const deadline = Date.now() + 75_000;
    startWriter();
    for (let i = 0; searches < MIN_SAMPLES || snapshots < MIN_SAMPLES || runs.length === 0; i++) {
      expect(Date.now(), 'not enough samples before the deadline').toBeLessThan(deadline);
      if (writer!.done) {
        const r = await writer!.exited;
        expect(r.code, `writer run ${runs.length}: ${r.stderr}`).toBe(0);
        runs.push(r);
        startWriter();
      }
      const active = writer!;

      // 1. A snapshot: counts that must agree in every committed state, read in one transaction.
      const t0 = performance.now();
      const snap = await store.read((db) => ({
        files: Number(db.selectValue('SELECT count(*) FROM files')),
        chunks: Number(db.selectValue('SELECT count(*) FROM chunks')),
        docsize: Number(db.selectValue('SELECT count(*) FROM chunks_fts_docsize')),
        chunkless: Number(db.selectValue('SELECT count(*) FROM files f WHERE line_count > 0 AND NOT EXISTS (SELECT 1 FROM chunks c WHERE c.file_id = f.id)')),
        generation: Number(db.selectValue("SELECT value FROM meta WHERE key = 'generation'")),
      }));
      const waited = performance.now() - t0;
      expect(snap.docsize, `FTS rows vs chunks at generation ${snap.generation}`).toBe(snap.chunks);
      expect(snap.chunkless, `files without chunks at generation ${snap.generation}`).toBe(0);
      expect(snap.files).toBeGreaterThan(0);
      seen(snap.generation, 'snapshot');
      if (!active.done) {
        snapshots++;
        snapshotWaits.push(waited);
      }

      // 2. A search, then every hit resolved in a later transaction: it is there with the same
      //    path and lines, or its file was replaced by a commit after the snapshot above.
      const q = queries[i % queries.length];
      const t1 = performance.now();
      const r = await w.search({ query: q, limit: 8 });
      const took = performance.now() - t1;
      if (!checkResponse(r, q)) continue;
      if (!active.done) {
        searches++;
        searchTimes.push(took);
      }
      if (r.hits.length) {
        const ids = r.hits.map((h) => Number(h.hit_id.split('.')[0]));
        const now = await store.read((db) => ({
          generation: Number(db.selectValue("SELECT value FROM meta WHERE key = 'generation'")),
          rows: db.selectObjects(`SELECT c.id, f.path, c.start_line, c.end_line FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (${ids.join(',')})`) as Array<{ id: number; path: string; start_line: number; end_line: number }>,
        }));
        seen(now.generation, 'hit check');
        const byId = new Map(now.rows.map((x) => [x.id, x]));
        for (const [k, h] of r.hits.entries()) {
          const row = byId.get(ids[k]);
          if (row) expect(`${row.path}:${row.start_line}-${row.end_line}`).toBe(`${h.path}:${h.start_line}-${h.end_line}`);
          else {
            vanishedHits++;
            expect(now.generation, `hit ${h.hit_id} vanished without a commit`).toBeGreaterThan(snap.generation);
          }
        }
        // 3. Now and then explain the top hit through the product.
        if (i % 5 === 0) {
          const e = await w.explain(r.hits[0].hit_id);
          if (e.status === 'ok') {
            explained++;
            expect(e.explanation!.path).toBe(r.hits[0].path);
            expect(e.explanation!.start_line).toBe(r.hits[0].start_line);
          } else {
            expect(e.error?.code, JSON.stringify(e.error)).toBe('stale_hit');
            expect(e.index!.generation).toBeGreaterThan(snap.generation);
            staleExplains++;
          }
          seen(e.index!.generation, 'explain');
        }
      }
      // 4. Now and then a fresh open (a new process's first contact) while the writer works.
      if (i % 15 === 0) {
        const w2 = await openWorkspace(root);
        try {
          const r2 = await w2.search({ query: q });
          if (checkResponse(r2, q)) freshOpens++;
        } finally {
          w2.close();
        }
      }
    }
    const last = await writer!.exited;
    expect(last.code, last.stderr).toBe(0);
    runs.push(last);
    w.close();
    store.close();

    const maxWait = Math.max(...snapshotWaits);
    console.log(
      `[concurrency] ${runs.length} writer runs (${runs.map((x) => `${x.ms} ms`).join(', ')}); while writing: ${searches} searches, ${snapshots} snapshots; ` +
        `reader wait (snapshot read) median ${median(snapshotWaits).toFixed(1)} ms, p95 ${pct(snapshotWaits, 0.95).toFixed(1)} ms, max ${maxWait.toFixed(1)} ms; ` +
        `search call median ${median(searchTimes).toFixed(1)} ms, max ${Math.max(...searchTimes).toFixed(1)} ms; index_busy ${busy}; ` +
        `explained ${explained} (stale ${staleExplains}); hits replaced between search and check ${vanishedHits}; fresh opens ${freshOpens}; last generation ${lastGen}`,
    );
    expect(searches).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expect(snapshots).toBeGreaterThanOrEqual(MIN_SAMPLES);
    expect(busy).toBe(0);
    expect(maxWait).toBeLessThan(MAX_READER_WAIT_MS);

    // The writer's last run completed: the index is whole and matches the tree.
    expect(sqliteText(dbPath(), 'PRAGMA integrity_check')).toBe('ok');
    const c = indexCounts(dbPath());
    expect(c.build_state).toBe('complete');
    expect([c.chunks, c.orphan_chunks, c.orphan_fts, c.missing_fts]).toEqual([c.docsize, 0, 0, 0]);
  }, 240_000);

  it('refuses a second indexer with "index busy" (exit 4) while the first runs, without harm', async () => {
    const root = ws.root;
    const before = indexCounts(dbPath());
    const a = startCli(['index', root, '--full', '--quiet']);
    await waitFor(() => {
      const l = lockState(indexerLockPath());
      return l.state === 'held' && l.pid === a.pid;
    }, 20_000, 'the first indexer to claim the workspace');
    const b = await runCli(['index', root, '--json']);
    expect(a.done, 'the first indexer finished before the second was refused').toBe(false);
    expect(b.code, b.stdout + b.stderr).toBe(4);
    const out = JSON.parse(b.stdout) as { status: string; error: { code: string; message: string }; hint?: string };
    expect(out.status).toBe('error');
    expect(out.error.code).toBe('index_busy');
    expect(out.error.message).toContain(`another process (pid ${a.pid}) is indexing`);
    const plain = await runCli(['index', root]);
    expect(plain.code).toBe(4);
    expect(plain.stderr).toMatch(/another process \(pid \d+\) is indexing/);

    const ra = await a.exited;
    expect(ra.code, ra.stderr).toBe(0);
    expect(sqliteText(dbPath(), 'PRAGMA integrity_check')).toBe('ok');
    const after = indexCounts(dbPath());
    expect(after.build_state).toBe('complete');
    expect({ files: after.files, chunks: after.chunks, docsize: after.docsize }).toEqual({ files: before.files, chunks: before.chunks, docsize: before.chunks });
    expect(lockState(indexerLockPath()).state).toBe('absent');
    expect(lockState(dbLockPath()).state).toBe('absent');
  }, 180_000);

  it('lets readers share across processes: a search answers while another process holds a long read, and an indexing run waits for that reader, then commits', async () => {
    const root = ws.root;
    const reader = startScript(path.join(REPO, 'test/helpers/hold-read.mjs'), [root, '6000']);
    await waitFor(() => reader.done || /^holding \d+/m.test(reader.stdoutSoFar), 60_000, 'the reader to begin its transaction');
    expect(reader.done, reader.stdoutSoFar).toBe(false);
    // Readers used to take the same exclusive lock: this search waited the reader's 6 s out and
    // answered index_busy after lock_timeout_ms (2 s). Now it shares.
    const w = await openWorkspace(root, { settings: { lock_timeout_ms: 2000 } });
    try {
      const r = await w.search({ query: 'ledger' });
      expect(r.error, JSON.stringify(r.error)).toBeUndefined();
      expect(r.status).toBe('ok');
      expect(reader.stdoutSoFar, 'the search answered while the reader still held its transaction').not.toMatch(/released/);
    } finally {
      w.close();
    }
    // A writer commits only once no reader is left: its COMMIT waits (PENDING keeps new readers out)
    // and keeps its work instead of redoing it.
    mutateWorkspace(root, SEED, 900, known, { edit: 5, add: 0, remove: 0 });
    const indexed = await runCli(['index', root, '--json']);
    expect(indexed.code, indexed.stderr).toBe(0);
    expect((JSON.parse(indexed.stdout) as { files_indexed: number }).files_indexed).toBeGreaterThan(0);
    expect(reader.stdoutSoFar, 'the indexing run committed after the reader let go').toMatch(/released/);
    expect((await reader.exited).code).toBe(0);
    expect(sqliteText(dbPath(), 'PRAGMA integrity_check')).toBe('ok');
    expect(lockState(dbLockPath()).state).toBe('absent');
  }, 120_000);

  it('recovers index and indexer locks left by a dead process', async () => {
    const dead = startSleeper();
    const pid = dead.pid!;
    writeLock(dbLockPath(), pid);
    writeLock(indexerLockPath(), pid);
    // What a process killed between writing its temp lock file and removing it leaves behind.
    const temp = `${dbLockPath()}.${pid}.${'ab'.repeat(12)}`;
    writeLock(temp, pid);
    // A reader mark (SQLite's SHARED lock) of a process killed in a read transaction.
    const mark = `${dbLockPath()}.r.${pid}.${'cd'.repeat(12)}`;
    writeLock(mark, pid);
    dead.kill('SIGKILL');
    await once(dead, 'exit');

    const w = await openWorkspace(ws.root, { settings: { lock_timeout_ms: 300 } });
    try {
      const r = await w.search({ query: ws.probes[1].query });
      expect(r.status, JSON.stringify(r.error)).toBe('ok');
      // A dead indexer is not reported as running.
      expect(r.index!.indexer_running).toBe(false);
    } finally {
      w.close();
    }
    expect(lockState(dbLockPath()).state).toBe('absent');
    expect(lockState(temp).state, 'temp lock file of the dead process').toBe('absent');
    // The next indexing run breaks the dead claim and runs.
    mutateWorkspace(ws.root, SEED, 901, known, { edit: 3, add: 0, remove: 0 });
    const r = await runCli(['index', ws.root, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(lockState(indexerLockPath()).state).toBe('absent');
    // Its commit needed every reader gone: the dead reader's mark was removed, not waited for.
    expect(lockState(mark).state, 'reader mark of the dead process').toBe('absent');
  }, 30_000);

  // Telling a reused pid from the original holder needs Linux's boot id and process start times
  // (/proc); elsewhere DotLock cannot make that distinction and this case does not apply.
  const lockIdentity = BOOT_ID !== null && startTicks(process.pid) !== null;
  it.runIf(lockIdentity)(
    `treats a lock as stale when its pid now belongs to another process (reboot or pid reuse)${lockIdentity ? '' : ' [SKIPPED: needs /proc boot_id and process start times (Linux)]'}`,
    async () => {
      const other = startSleeper();
      try {
        // Same live pid, but the lock was taken in an earlier boot…
        writeLock(dbLockPath(), other.pid!, { boot: '00000000-0000-4000-8000-000000000000' });
        const w = await openWorkspace(ws.root, { settings: { lock_timeout_ms: 300 } });
        try {
          expect((await w.search({ query: 'ledger' })).status).toBe('ok');
          expect(lockState(dbLockPath()).state).toBe('absent');
          // …or by an earlier process that had this pid (its start time differs).
          writeLock(dbLockPath(), other.pid!, { start: startTicks(other.pid!)! - 1 });
          w.close();
          expect((await w.search({ query: 'ledger' })).status).toBe('ok');
          expect(lockState(dbLockPath()).state).toBe('absent');
        } finally {
          w.close();
        }
      } finally {
        other.kill('SIGKILL');
        await once(other, 'exit');
      }
    },
    30_000,
  );

  it('fails readers with index_busy after lock_timeout_ms when a live process holds the lock and never releases it', async () => {
    const live = startSleeper();
    writeLock(dbLockPath(), live.pid!);
    try {
      const w = await openWorkspace(ws.root, { settings: { lock_timeout_ms: 300 } });
      try {
        const t0 = performance.now();
        const r = await w.search({ query: 'ledger' });
        const waited = performance.now() - t0;
        expect(r.status).toBe('error');
        expect(r.error?.code).toBe('index_busy');
        expect(r.error?.message).toMatch(/stayed locked by another process for 300 ms/);
        expect(r.hint).toMatch(/retry/);
        expect(waited).toBeGreaterThanOrEqual(290);
        expect(waited).toBeLessThan(300 + 20_000); // bounded by lock_timeout_ms; only a hang fails
        const st = await w.status();
        expect(st.status).toBe('error');
        expect(st.error?.code).toBe('index_busy');
        console.log(`[concurrency] live lock holder: search answered index_busy after ${waited.toFixed(0)} ms (lock_timeout_ms 300)`);
      } finally {
        w.close();
      }
      // The CLI maps it to exit code 4.
      writeFileSync(path.join(hciDir(), 'settings.toml'), 'lock_timeout_ms = 300\n');
      const cli = await runCli(['search', 'ledger', '--root', ws.root, '--json']);
      expect(cli.code, cli.stdout + cli.stderr).toBe(4);
      expect((JSON.parse(cli.stdout) as SearchResponse).error?.code).toBe('index_busy');
      // A live holder's lock is never broken.
      expect(lockState(dbLockPath())).toEqual({ state: 'held', pid: live.pid, alive: true });
    } finally {
      rmSync(path.join(hciDir(), 'settings.toml'), { force: true });
      live.kill('SIGKILL');
      await once(live, 'exit');
    }
    // Once the holder is gone its lock is stale and the next reader recovers it.
    const w = await openWorkspace(ws.root, { settings: { lock_timeout_ms: 300 } });
    try {
      const r = await w.search({ query: 'ledger' });
      expect(r.status, JSON.stringify(r.error)).toBe('ok');
    } finally {
      w.close();
    }
    expect(lockState(dbLockPath()).state).toBe('absent');
  }, 30_000);
});

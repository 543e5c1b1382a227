// Crash safety with real processes: `hci index` (the compiled CLI) is SIGKILLed at seeded random
// moments — from an empty index, during --full rebuilds and during incremental runs after edits,
// additions and deletions. After every kill the index must open through the product (recovering the
// dead process's lock and rolling back its hot journal), pass SQLite's and FTS5's integrity checks
// (run by Debian's independent sqlite3 CLI), and hold only whole files: each indexed file has exactly
// the chunks a clean index gives for that content, and the FTS rows match the chunk rows one to one.
// Finally a normal run completes and the index equals a clean build of the same tree.
// "What a clean index gives" comes from a clean build of a reference tree holding every content the
// test will ever write (the original files plus each round's edited and added versions), keyed by
// content hash — so the expectation is the real pipeline's, whatever chunker is configured.
// Reproduce a run with HCI_CRASH_SEED=<seed printed in the log>.
// @lane slow
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import { generateWorkspace, mutateWorkspace, prng, type GeneratedWorkspace } from './helpers/generate-workspace.ts';
import { ensureBuilt, fileRows, indexCounts, journalState, lockState, runCli, runCliScript, shapeByPath, shapesByHash, sqliteText, storedBodies, startCli, type ExpectedFile, type IndexCounts, dbOf } from './helpers/hci-process.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';

const SEED = Number(process.env.HCI_CRASH_SEED ?? 20_240_611);
const FILES = 500;
const MIN_KILLS = 10;
const MAX_ITERATIONS = 34;
const MUTATION = { edit: 50, add: 20, remove: 10 };
// The first run starts from no index at all; later runs mix --full, incremental runs resuming a
// killed run, and incremental runs after edits/additions/deletions. Past these runs the plan
// only continues while fewer than MIN_KILLS runs were actually killed (some finish first: on a quiet
// machine an incremental run is often done before its kill), with mostly full runs, which last long
// enough to be killed.
const PLAN: string[] = ['empty', 'incr', 'full', 'mutate', 'incr', 'full', 'mutate', 'mutate-full', 'incr', 'mutate', 'full', 'incr', 'mutate'];
const BASE_RUNS = PLAN.length;
while (PLAN.length < MAX_ITERATIONS) PLAN.push((['full', 'mutate-full', 'full'] as const)[PLAN.length % 3]);
const MUTATION_ROUNDS = PLAN.filter((m) => m.startsWith('mutate')).length;


let ws: GeneratedWorkspace;
let cleanFullMs = 0;
/** A clean build of the workspace's final tree (set by the completion test). */
let cleanRef = '';
let hotJournals = 0;
const CRASH_CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'helpers', 'crash-child.mjs');
const oracle = new Map<string, ExpectedFile>();
const tempDirs: string[] = [];

async function buildClean(root: string): Promise<number> {
  const r = await runCli(['index', root, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
  return r.ms;
}

/** Top hits of a few queries, normalised so equal scores compare independently of row ids. */
async function topHits(root: string, queries: string[]): Promise<string[][]> {
  const w = await openWorkspace(root);
  try {
    const out: string[][] = [];
    for (const q of queries) {
      const r = await w.search({ query: q, limit: 10 });
      expect(['ok', 'empty'], `${q}: ${JSON.stringify(r.error)}`).toContain(r.status);
      out.push([r.status, ...r.hits.map((h) => `${h.score.toFixed(4)} ${h.path}:${h.start_line}-${h.end_line}`).sort()]);
    }
    return out;
  } finally {
    w.close();
  }
}

interface Outcome {
  iteration: number;
  mode: string;
  delayMs: number;
  killed: boolean;
  journal: string;
  dbLock: string;
  indexerLock: string;
  /** Other files left in .hci (e.g. a temp lock file of a process killed while taking the lock). */
  leftovers: number;
  files: number;
  chunks: number;
  build: string;
}

/** Everything that must hold after a process died at an arbitrary point. */
async function checkIndexAfterCrash(root: string, probe: string): Promise<Pick<Outcome, 'journal' | 'dbLock' | 'indexerLock' | 'leftovers'> & { counts: IndexCounts | null }> {
  const db = dbOf(root);
  const journal = journalState(db);
  const dbLock = lockState(`${db}.lock`);
  const indexerLock = lockState(path.join(root, '.hci', 'indexer.lock'));
  // Whatever lock files the killed process left must name a dead process.
  if (dbLock.state === 'held') expect(dbLock.alive).toBe(false);
  if (indexerLock.state === 'held') expect(indexerLock.alive).toBe(false);
  expect(dbLock.state).not.toBe('unreadable');
  expect(indexerLock.state).not.toBe('unreadable');

  // (a) The product opens it: stale locks are broken, a hot journal is rolled back by this first opener.
  const w = await openWorkspace(root, { settings: { lock_timeout_ms: 3000 } });
  let noIndex = false;
  try {
    const st = await w.status();
    expect(st.status, JSON.stringify(st.error)).not.toBe('error');
    noIndex = st.status === 'no_index';
    const sr = await w.search({ query: probe });
    expect(['ok', 'empty', 'no_index'], JSON.stringify(sr.error)).toContain(sr.status);
  } finally {
    w.close();
  }
  const known = /^(index\.sqlite(-journal|\.lock)?|indexer\.lock|settings\.toml|recent-queries\.ndjson)$/;
  const states = {
    // A kill before the first write (a slow start on a loaded machine) leaves no .hci folder at all.
    leftovers: existsSync(path.join(root, '.hci')) ? readdirSync(path.join(root, '.hci')).filter((n) => !known.test(n)).length : 0,
    journal,
    dbLock: dbLock.state === 'held' ? 'stale' : dbLock.state,
    indexerLock: indexerLock.state === 'held' ? 'stale' : indexerLock.state,
  };
  // The opener released its lock and left no journal behind.
  expect(lockState(`${db}.lock`).state).toBe('absent');
  // A hot journal was rolled back (and deleted) by that first open; an unsynced one is ignored.
  const journalAfter = journalState(db);
  expect(journalAfter).not.toBe('hot');
  if (journal === 'absent') expect(journalAfter).toBe('absent');
  if (noIndex) return { ...states, counts: null };

  // (b) SQLite's own check, by an independent sqlite3, after the product's first open.
  expect(sqliteText(db, 'PRAGMA integrity_check')).toBe('ok');
  // FTS5's structural check needs a writable database: run it on a copy.
  const copyDir = tmpDir('hci-crash-copy-');
  try {
    const copy = path.join(copyDir, 'index.sqlite');
    copyFileSync(db, copy);
    sqliteText(copy, "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check')", { write: true });
  } finally {
    rmSync(copyDir, { recursive: true, force: true });
  }

  // (c) Whole files only, each exactly as a clean index has it; FTS rows one to one with chunks.
  const counts = indexCounts(db);
  expect(counts.docsize).toBe(counts.chunks);
  expect(counts.orphan_chunks).toBe(0);
  expect(counts.orphan_fts).toBe(0);
  expect(counts.missing_fts).toBe(0);
  expect(['empty', 'partial', 'complete']).toContain(counts.build_state);
  for (const f of fileRows(db)) {
    const want = oracle.get(f.hash);
    expect(want, `${f.path}: hash ${f.hash} is no content this test ever wrote`).toBeDefined();
    expect(f.line_count, f.path).toBe(want!.lineCount);
    if (f.line_count > 0) expect(f.n, f.path).toBeGreaterThan(0);
    if (f.n > 0) {
      expect([f.min_ord, f.max_ord, f.distinct_ordinals], f.path).toEqual([0, f.n - 1, f.n]);
    }
    expect(f.spans ?? '', f.path).toBe(want!.spans);
  }
  for (const [p, stored] of storedBodies(db)) {
    expect(stored.bodies === oracle.get(stored.hash)!.bodies, `${p}: stored chunk bodies differ from a clean index of that content`).toBe(true);
  }
  return { ...states, counts };
}

beforeAll(async () => {
  ensureBuilt();
  ws = generateWorkspace({ files: FILES, seed: SEED });
  tempDirs.push(ws.root);
  // The reference tree: the same original files, plus every version the mutation rounds will write
  // (replayed on a scratch copy), each under variants/r<round>/ with its own file name and extension.
  const universe = generateWorkspace({ files: FILES, seed: SEED });
  tempDirs.push(universe.root);
  const scratch = copyWorkspace(universe.root);
  tempDirs.push(scratch);
  const scratchKnown = [...universe.paths];
  let variants = 0;
  for (let round = 1; round <= MUTATION_ROUNDS; round++) {
    const m = mutateWorkspace(scratch, SEED, round, scratchKnown, MUTATION);
    for (const f of [...m.edited, ...m.added]) {
      const dest = path.join(universe.root, 'variants', `r${round}`, ...f.path.split('/'));
      mkdirSync(path.dirname(dest), { recursive: true });
      writeFileSync(dest, f.content);
      variants++;
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  const ms = await buildClean(universe.root);
  for (const [hash, shape] of shapesByHash(dbOf(universe.root))) oracle.set(hash, shape);
  // How long a full run of the workspace under test takes, to spread the kills across it.
  cleanFullMs = Math.round((ms * FILES) / (FILES + variants));
  console.log(
    `[crash-safety] seed ${SEED} (reproduce with HCI_CRASH_SEED=${SEED}); ${FILES} files; reference build of ${FILES + variants} files ` +
      `(${variants} later versions) in ${ms} ms; ${oracle.size} distinct contents`,
  );
}, 240_000);

afterAll(() => {
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

describe('crash safety: hci index killed with SIGKILL', () => {
  it(`leaves an index that opens, passes integrity checks and holds only whole files, over ≥ ${MIN_KILLS} kills`, async () => {
    const rnd = prng(SEED);
    const root = ws.root;
    const known = [...ws.paths];
    const outcomes: Outcome[] = [];
    let kills = 0;
    let round = 0;
    const maxDelay = Math.max(400, Math.min(2500, Math.round(cleanFullMs * 0.9)));
    for (let i = 0; i < MAX_ITERATIONS && (kills < MIN_KILLS || i < BASE_RUNS); i++) {
      const mode = PLAN[i];
      if (mode.startsWith('mutate')) mutateWorkspace(root, SEED, ++round, known, MUTATION);
      const args = ['index', root, '--quiet', ...(mode.endsWith('full') ? ['--full'] : [])];
      const delayMs = Math.round(50 + rnd() * (maxDelay - 50));
      const proc = startCli(args);
      await new Promise((r) => setTimeout(r, delayMs));
      const killed = !proc.done;
      if (killed) proc.child.kill('SIGKILL');
      const res = await proc.exited;
      if (killed) {
        expect(res.signal).toBe('SIGKILL');
        kills++;
      } else {
        // A run that finished before its kill must have succeeded (never "busy" from a dead lock).
        expect(res.code, res.stderr).toBe(0);
      }
      const probe = ws.probes[i % ws.probes.length].query;
      const check = await checkIndexAfterCrash(root, probe);
      outcomes.push({
        iteration: i, mode, delayMs, killed, ...check,
        files: check.counts?.files ?? 0, chunks: check.counts?.chunks ?? 0, build: check.counts?.build_state ?? 'no_index',
      });
    }
    console.log(`[crash-safety] seed ${SEED}: ${kills} kills in ${outcomes.length} runs`);
    console.table(outcomes.map(({ iteration, mode, delayMs, killed, journal, dbLock, indexerLock, leftovers, files, chunks, build }) => ({ iteration, mode, delayMs, killed, journal, dbLock, indexerLock, leftovers, files, chunks, build })));
    const journals = outcomes.reduce<Record<string, number>>((acc, o) => ((acc[o.journal] = (acc[o.journal] ?? 0) + 1), acc), {});
    console.log(`[crash-safety] journal states seen after kills: ${JSON.stringify(journals)}`);
    expect(kills).toBeGreaterThanOrEqual(MIN_KILLS);
  }, 360_000);

  it('completes after the kills to exactly the index a clean build gives', async () => {
    const root = ws.root;
    const r = await runCli(['index', root, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    const after = await checkIndexAfterCrash(root, ws.probes[0].query);
    expect(after.counts!.build_state).toBe('complete');

    const ref = copyWorkspace(root);
    tempDirs.push(ref);
    cleanRef = ref;
    await buildClean(ref);
    const want = indexCounts(dbOf(ref));
    const got = indexCounts(dbOf(root));
    expect({ files: got.files, chunks: got.chunks, docsize: got.docsize }).toEqual({ files: want.files, chunks: want.chunks, docsize: want.docsize });
    expect(shapeByPath(dbOf(root))).toEqual(shapeByPath(dbOf(ref)));

    const file = (rel: string) => path.join(root, ...rel.split('/'));
    const live = ws.probes.filter((p) => existsSync(file(p.path)) && readFileSync(file(p.path), 'utf8').includes(p.query)).slice(0, 4);
    expect(live.length).toBeGreaterThan(0);
    const queries = [...live.map((p) => p.query), 'InvalidOperationException ledger', 'Region eu-west Enabled', 'ReserveStockAsync', 'PageTitle dashboard'];
    const want2 = await topHits(ref, queries);
    expect(want2.filter((h) => h[0] === 'ok').length).toBeGreaterThanOrEqual(live.length + 3);
    expect(await topHits(root, queries)).toEqual(want2);
  }, 240_000);

  // Random kills rarely land inside the few milliseconds in which a commit writes the database
  // file, so the hot-journal path is also driven deterministically: the child kills itself at the
  // exact syscall (see helpers/crash-child.mjs).
  const points: Array<{ point: 'journal-delete' | 'db-write'; k: number; j?: number }> = [
    { point: 'journal-delete', k: 1 },
    { point: 'journal-delete', k: 3 },
    { point: 'db-write', k: 2, j: 1 },
    { point: 'db-write', k: 1, j: 4 },
  ];
  it.each(points)('rolls back a hot journal left by a kill at $point of commit $k', async ({ point, k, j }) => {
    const root = ws.root;
    const db = dbOf(root);
    const before = indexCounts(db);
    const res = await runCliScript(CRASH_CHILD, [root, point, String(k), ...(j ? [String(j)] : [])]);
    expect(res.signal, res.stderr).toBe('SIGKILL');
    // The database file was written (wholly or partly) past the last commit: the journal is hot.
    expect(journalState(db)).toBe('hot');
    const after = await checkIndexAfterCrash(root, ws.probes[0].query);
    expect(after.journal).toBe('hot');
    expect(journalState(db)).toBe('absent');
    // Rolled back to exactly the last committed state: commits 1..k-1 stayed, commit k is gone.
    expect(after.counts!.generation).toBe(before.generation + k - 1);
    expect(after.counts!.build_state).toBe(k === 1 ? before.build_state : 'partial');
    hotJournals++;
  }, 120_000);

  it('reports "no index" (not an error) after a kill in the very first commit, and the next run builds it', async () => {
    // In a fresh workspace commit 1 creates the schema: killed before its journal is deleted, the
    // file holds tables that the first opener rolls back to an empty database.
    const small = generateWorkspace({ files: 30, seed: SEED + 1 });
    tempDirs.push(small.root);
    const res = await runCliScript(CRASH_CHILD, [small.root, 'journal-delete', '1']);
    expect(res.signal, res.stderr).toBe('SIGKILL');
    expect(journalState(dbOf(small.root))).toBe('hot');
    const w = await openWorkspace(small.root);
    try {
      const st = await w.status();
      expect(st.status, JSON.stringify(st.error)).toBe('no_index');
      expect((await w.search({ query: small.probes[0].query })).status).toBe('no_index');
    } finally {
      w.close();
    }
    expect(journalState(dbOf(small.root))).toBe('absent');
    const r = await runCli(['index', small.root, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(indexCounts(dbOf(small.root))).toMatchObject({ files: 30, build_state: 'complete' });
  }, 120_000);

  it('completes after the injected crashes to exactly the clean build again', async () => {
    expect(hotJournals).toBe(points.length);
    const r = await runCli(['index', ws.root, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    expect(indexCounts(dbOf(ws.root)).build_state).toBe('complete');
    expect(shapeByPath(dbOf(ws.root))).toEqual(shapeByPath(dbOf(cleanRef)));
    console.log(`[crash-safety] hot journals rolled back after injected kills: ${hotJournals}`);
  }, 120_000);
});

// The same guarantees with semantic search on (the learned provider): a kill during the keyword pass
// or during the vector phase (training, then batches of vector rows, each its own transaction)
// leaves an index that opens and checks clean, where no vector row outlives its chunk, every row is
// the current model's and of its width, and at most one model is current; the next run completes
// the vectors.
describe('crash safety with semantic search on: vector rows', () => {
  const vectorInvariants = (db: string) => {
    expect(sqliteText(db, 'PRAGMA integrity_check')).toBe('ok');
    const [orphans, foreign, wrongWidth, current] = sqliteText(db, `SELECT
        (SELECT count(*) FROM chunk_vectors WHERE chunk_id NOT IN (SELECT id FROM chunks)),
        (SELECT count(*) FROM chunk_vectors WHERE model_id NOT IN (SELECT id FROM vector_models WHERE current = 1)),
        (SELECT count(*) FROM chunk_vectors v JOIN vector_models m ON m.id = v.model_id WHERE length(v.vec) <> m.dims),
        (SELECT count(*) FROM vector_models WHERE current = 1)`).split('|').map(Number);
    expect({ orphans, foreign, wrongWidth }).toEqual({ orphans: 0, foreign: 0, wrongWidth: 0 });
    expect(current).toBeLessThanOrEqual(1);
    const counts = indexCounts(db);
    expect(counts.orphan_chunks + counts.orphan_fts + counts.missing_fts).toBe(0);
  };
  const opens = async (root: string) => {
    const w = await openWorkspace(root, { settings: { lock_timeout_ms: 3000 } });
    try {
      const st = await w.status();
      expect(st.status, JSON.stringify(st.error)).not.toBe('error');
      const r = await w.search({ query: 'service', mode: 'hybrid' });
      expect(['ok', 'empty', 'no_index', 'error'], JSON.stringify(r.error)).toContain(r.status);
      if (r.status === 'error') expect(r.error?.code).toBe('mode_unavailable');
    } finally {
      w.close();
    }
  };

  it('survives kills in the keyword pass and in the vector phase; the next run completes every vector', async () => {
    const small = generateWorkspace({ files: 200, seed: SEED + 2 });
    tempDirs.push(small.root);
    mkdirSync(path.join(small.root, '.hci'), { recursive: true });
    writeFileSync(path.join(small.root, '.hci', 'settings.toml'), '[semantic]\nenabled = true\ndims = 64\n');
    const db = dbOf(small.root);
    // How many commits a full run makes (the vector phase's are the last ones).
    const probe = await runCliScript(CRASH_CHILD, [small.root, 'journal-delete', '100000']);
    const total = Number(/after (\d+) commits/.exec(probe.stderr)?.[1]);
    expect(total, probe.stderr).toBeGreaterThan(3);
    expect(Number(sqliteText(db, 'SELECT count(*) FROM chunk_vectors'))).toBe(Number(sqliteText(db, 'SELECT count(*) FROM chunks')));
    // Injected, counted from the end of a run (the vector phase's commits are its last: the model row,
    // the batches of vector rows, the state write). A run's commit count varies with batch sizing, so
    // a point the run did not reach is retried with that run's own count.
    for (const [point, fromEnd, j] of [['journal-delete', 2], ['db-write', 1, 1], ['journal-delete', 0]] as const) {
      let n = total;
      let res = await runCliScript(CRASH_CHILD, [small.root, point, String(n - fromEnd), ...(j ? [String(j)] : [])]);
      for (let tries = 0; res.code === 3 && tries < 4; tries++) {
        n = Number(/after (\d+) commits/.exec(res.stderr)?.[1]);
        res = await runCliScript(CRASH_CHILD, [small.root, point, String(n - fromEnd), ...(j ? [String(j)] : [])]);
      }
      expect(res.signal, res.stderr).toBe('SIGKILL');
      await opens(small.root);
      expect(journalState(db)).toBe('absent');
      vectorInvariants(db);
    }
    // Random kills of `hci index --full` across the whole run.
    const rnd = prng(SEED + 3);
    let kills = 0;
    for (let i = 0; i < 6; i++) {
      const proc = startCli(['index', small.root, '--quiet', '--full']);
      await new Promise((r) => setTimeout(r, Math.round(100 + rnd() * 2500)));
      const killed = !proc.done;
      if (killed) proc.child.kill('SIGKILL');
      const res = await proc.exited;
      if (killed) kills++;
      else expect(res.code, res.stderr).toBe(0);
      await opens(small.root);
      vectorInvariants(db);
    }
    console.log(`[crash-safety] semantic: ${kills} random kills in 6 runs, 3 injected`);
    const r = await runCli(['index', small.root, '--quiet']);
    expect(r.code, r.stderr).toBe(0);
    vectorInvariants(db);
    expect(Number(sqliteText(db, 'SELECT count(*) FROM chunk_vectors'))).toBe(Number(sqliteText(db, 'SELECT count(*) FROM chunks')));
    const w = await openWorkspace(small.root);
    try {
      expect((await w.status()).vectors).toMatchObject({ state: 'ready', coverage: 1 });
      expect((await w.search({ query: small.probes[0].query, mode: 'hybrid' })).status).toBe('ok');
    } finally {
      w.close();
    }
  }, 300_000);
});

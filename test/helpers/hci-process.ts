// Test helper for the multi-process tests: runs the real `hci` CLI (bin/hci.js → dist/) as child
// processes, inspects an index file with Debian's sqlite3 CLI (an independent SQLite, so checks do
// not go through the code under test), and describes the lock and journal files beside the index.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { closeSync, existsSync, openSync, readFileSync, readSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORMAT_3_DICTIONARY } from '../../core/index/deflate-dictionary.ts';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const HCI_BIN = path.join(REPO, 'bin', 'hci.js');
export const SQLITE3 = '/usr/bin/sqlite3';

/** The index file of a workspace root. */
export const dbOf = (root: string): string => path.join(root, '.hci', 'index.sqlite');

/** Fails early, with the fix, when the CLI has not been compiled (`npm test` builds it first). */
export function ensureBuilt(): void {
  if (!existsSync(path.join(REPO, 'dist', 'runtimes', 'node', 'cli.js'))) {
    throw new Error('dist/ is missing: run `npm run build` (npm test does it) before these tests');
  }
  if (!existsSync(SQLITE3)) throw new Error(`${SQLITE3} is missing (apt-get install sqlite3)`);
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export interface CliProcess {
  child: ChildProcess;
  pid: number;
  startedAt: number;
  exited: Promise<CliResult>;
  /** True once the process has exited (by itself or killed). */
  readonly done: boolean;
  /** What it has printed on stdout so far. */
  readonly stdoutSoFar: string;
}

/** Starts `node bin/hci.js <args>` (in the repository, or `cwd`); stdout and stderr are collected. */
export function startCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = REPO): CliProcess {
  return startScript(HCI_BIN, args, env, cwd);
}

/** Starts `node <script> <args>` (in the repository, or `cwd`); stdout and stderr are collected. */
export function startScript(script: string, args: string[], env: NodeJS.ProcessEnv = {}, cwd = REPO): CliProcess {
  const startedAt = Date.now();
  const child = spawn(process.execPath, [script, ...args], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  let done = false;
  const exited = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      done = true;
      resolve({ code, signal, stdout, stderr, ms: Date.now() - startedAt });
    });
  });
  return {
    child,
    pid: child.pid!,
    startedAt,
    exited,
    get done() {
      return done;
    },
    get stdoutSoFar() {
      return stdout;
    },
  };
}

export function runCli(args: string[], env: NodeJS.ProcessEnv = {}, cwd = REPO): Promise<CliResult> {
  return startCli(args, env, cwd).exited;
}

export function runCliScript(script: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> {
  return startScript(script, args, env).exited;
}

/** Runs SQL with the system sqlite3 CLI and returns its rows (read-only unless `write`). */
export function sqliteRows<T = Record<string, unknown>>(db: string, sql: string, opts: { write?: boolean } = {}): T[] {
  const out = execFileSync(SQLITE3, [...(opts.write ? [] : ['-readonly']), '-json', db, sql], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  return out.trim() ? (JSON.parse(out) as T[]) : [];
}

/** Runs SQL with the system sqlite3 CLI and returns its plain text output. */
export function sqliteText(db: string, sql: string, opts: { write?: boolean } = {}): string {
  return execFileSync(SQLITE3, [...(opts.write ? [] : ['-readonly']), db, sql], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).trim();
}

export function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export type LockState = { state: 'absent' } | { state: 'held'; pid: number; alive: boolean } | { state: 'unreadable' };

/** What a dot-lock file (`index.sqlite.lock`, `indexer.lock`) says right now. */
export function lockState(lockPath: string): LockState {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch {
    return { state: 'absent' };
  }
  try {
    const owner = JSON.parse(text) as { pid: number };
    return { state: 'held', pid: owner.pid, alive: pidAlive(owner.pid) };
  } catch {
    return { state: 'unreadable' };
  }
}

const JOURNAL_MAGIC = Buffer.from([0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]);

/**
 * The rollback journal beside a database: `absent`; `empty`; `hot` when its header carries the
 * journal magic (it was synced before the database was touched, so the next opener must roll it
 * back); `unsynced` when the header is still zero — SQLite writes the magic only when it syncs the
 * journal, just before changing the database, so such a journal means the database file was not
 * modified yet and SQLite rightly ignores it (the next writer reuses or deletes it).
 */
export function journalState(dbPath: string): 'absent' | 'empty' | 'hot' | 'unsynced' {
  let fd = -1;
  try {
    fd = openSync(`${dbPath}-journal`, 'r');
    const head = Buffer.alloc(8);
    const n = readSync(fd, head, 0, 8, 0);
    if (n === 0) return 'empty';
    return n === 8 && head.equals(JOURNAL_MAGIC) ? 'hot' : 'unsynced';
  } catch {
    return 'absent';
  } finally {
    if (fd >= 0) closeSync(fd);
  }
}

/** What a clean index stores for one content (keyed elsewhere by its hash). */
export interface ExpectedFile {
  /** Chunk line ranges in ordinal order, "start-end,start-end". */
  spans: string;
  /** Digest of the chunk bodies in ordinal order (what `chunks.body` holds). */
  bodies: string;
  lineCount: number;
}

/** Reads what an index holds for every content, keyed by content hash (for a clean build: the oracle). */
export function shapesByHash(db: string): Map<string, ExpectedFile> {
  const bodies = storedBodies(db);
  const out = new Map<string, ExpectedFile>();
  for (const f of fileRows(db)) {
    const shape = { spans: f.spans ?? '', bodies: bodies.get(f.path)!.bodies, lineCount: f.line_count };
    const seen = out.get(f.hash);
    if (seen && JSON.stringify(seen) !== JSON.stringify(shape)) {
      throw new Error(`the same content (${f.hash}) was chunked differently at ${f.path}: the oracle cannot key by content`);
    }
    out.set(f.hash, shape);
  }
  return out;
}

/** One digest over a file's chunk bodies in ordinal order. */
export function bodiesDigest(bodies: string[]): string {
  const h = createHash('sha256');
  for (const b of bodies) h.update(`${b.length}:`).update(b);
  return h.digest('hex');
}

/**
 * Digest of the stored chunk bodies of every file, by path. Read with the system sqlite3 and
 * decoded with node:zlib (raw deflate + the format's preset dictionary), not with hci's own code.
 */
export function storedBodies(db: string): Map<string, { hash: string; bodies: string }> {
  const files = sqliteRows<{ id: number; path: string; hash: string; data: string | null }>(
    db,
    'SELECT f.id, f.path, f.hash, hex(d.data) AS data FROM files f LEFT JOIN file_data d ON d.file_id = f.id ORDER BY f.path',
  );
  const spans = sqliteRows<{ file_id: number; start_line: number; end_line: number }>(db, 'SELECT file_id, start_line, end_line FROM chunks ORDER BY file_id, ordinal');
  const byFile = new Map<number, Array<[number, number]>>();
  for (const c of spans) {
    const list = byFile.get(c.file_id) ?? [];
    list.push([c.start_line, c.end_line]);
    byFile.set(c.file_id, list);
  }
  const out = new Map<string, { hash: string; bodies: string }>();
  for (const f of files) {
    const lines = f.data ? storedLines(Buffer.from(f.data, 'hex')) : [];
    const bodies = (byFile.get(f.id) ?? []).map(([a, b]) => lines.slice(a - 1, b).join('\n'));
    out.set(f.path, { hash: f.hash, bodies: bodiesDigest(bodies) });
  }
  return out;
}

/**
 * One file_data blob inflated independently of hci, as `<meta JSON>\n<text>`: format 7's two streams
 * (0x07, varints: text length, deflated text length, meta length; then the deflated text and meta)
 * or the one stream of formats 3–6.
 */
export function inflateStored(blob: Buffer): string {
  const dictionary = Buffer.from(FORMAT_3_DICTIONARY, 'utf8');
  if (blob[0] !== 0x07) return inflateRawSync(blob, { dictionary }).toString('utf8');
  let at = 1;
  const varint = () => {
    let n = 0;
    for (let scale = 1; ; scale *= 128) {
      const b = blob[at++];
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
    }
  };
  varint();
  const deflatedText = varint();
  varint();
  const text = inflateRawSync(blob.subarray(at, at + deflatedText), { dictionary }).toString('utf8');
  const meta = inflateRawSync(blob.subarray(at + deflatedText), { dictionary }).toString('utf8');
  return `${meta}\n${text}`;
}

/** The text lines of one file_data blob. */
export function storedLines(blob: Buffer): string[] {
  const all = inflateStored(blob);
  return all.slice(all.indexOf('\n') + 1).split('\n');
}

/** Every file_data blob of an index, inflated (meta and text), read with the system sqlite3. */
export function storedPlainTexts(db: string): string[] {
  return sqliteRows<{ data: string }>(db, 'SELECT hex(data) AS data FROM file_data').map((r) => inflateStored(Buffer.from(r.data, 'hex')));
}

export interface FileRow {
  id: number;
  path: string;
  hash: string;
  line_count: number;
  n: number;
  distinct_ordinals: number;
  min_ord: number | null;
  max_ord: number | null;
  spans: string | null;
}

/** Every file of an index with its chunks summarised (ordinals and line spans in ordinal order). */
export function fileRows(db: string): FileRow[] {
  return sqliteRows<FileRow>(
    db,
    `SELECT f.id, f.path, f.hash, f.line_count,
            (SELECT count(*) FROM chunks c WHERE c.file_id = f.id) AS n,
            (SELECT count(DISTINCT ordinal) FROM chunks c WHERE c.file_id = f.id) AS distinct_ordinals,
            (SELECT min(ordinal) FROM chunks c WHERE c.file_id = f.id) AS min_ord,
            (SELECT max(ordinal) FROM chunks c WHERE c.file_id = f.id) AS max_ord,
            (SELECT group_concat(s, ',') FROM (SELECT start_line || '-' || end_line AS s FROM chunks c WHERE c.file_id = f.id ORDER BY ordinal)) AS spans
       FROM files f ORDER BY f.path`,
  );
}

export interface IndexCounts {
  files: number;
  chunks: number;
  docsize: number;
  orphan_chunks: number;
  orphan_fts: number;
  missing_fts: number;
  generation: number;
  build_state: string;
}

/** Row counts that must agree in every committed state. */
export function indexCounts(db: string): IndexCounts {
  const [row] = sqliteRows<IndexCounts>(
    db,
    `SELECT (SELECT count(*) FROM files) AS files,
            (SELECT count(*) FROM chunks) AS chunks,
            (SELECT count(*) FROM chunks_fts_docsize) AS docsize,
            (SELECT count(*) FROM chunks WHERE file_id NOT IN (SELECT id FROM files)) AS orphan_chunks,
            (SELECT count(*) FROM chunks_fts_docsize WHERE id NOT IN (SELECT id FROM chunks)) AS orphan_fts,
            (SELECT count(*) FROM chunks WHERE id NOT IN (SELECT id FROM chunks_fts_docsize)) AS missing_fts,
            (SELECT CAST(value AS INTEGER) FROM meta WHERE key = 'generation') AS generation,
            (SELECT value FROM meta WHERE key = 'build_state') AS build_state`,
  );
  return row;
}

/** Lines an index keeps per path: hash and chunk spans, for comparing two indexes. */
export function shapeByPath(db: string): Map<string, string> {
  return new Map(fileRows(db).map((r) => [r.path, `${r.hash} ${r.line_count} ${r.spans ?? ''}`]));
}

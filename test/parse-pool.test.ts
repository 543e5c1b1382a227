// The Node parse pool (worker threads that parse files during big passes): a pass large enough
// to start it prepares its files in the worker (their rows whole, or their outlines: read-ahead.ts
// RowsShare) and writes exactly the index the in-thread path writes, every FTS posting included (also shared between two workers; the pool is sized to the cores); small passes stay in-thread;
// a worker that dies mid-pass loses no file; a cancelled pass
// stops the worker and the next pass completes. Runs the real CLI (bin/hci.js → dist/, where the
// worker script lives) and compares index files with Debian's sqlite3.
// @lane slow
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { HciWorkspace } from '../core/workspace.ts';
import { HciError } from '../core/platform.ts';
import { POOL_MIN_FILES, type IndexSummary } from '../core/index/indexer.ts';
import { openWorkspace, createNodeWorkspaceFs, createNodeIndexStorage, createNodeGrammarSource, createNodeParsePool, zlibCodec } from '../runtimes/node/index.ts';
import { MAX_PARSE_WORKERS, parseWorkerCount } from '../runtimes/node/parse-pool.ts';
import { generateWorkspace } from './helpers/generate-workspace.ts';
import { ensureBuilt, runCli, sqliteText } from './helpers/hci-process.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const FILES = 600;
const roots: string[] = [];
let reference = '';
let victim = '';

/** Everything a pass decides, read back with an independent sqlite3 (not generations: they follow batch timing). */
function dump(root: string): string {
  const db = path.join(root, '.hci', 'index.sqlite');
  return [
    sqliteText(db, 'SELECT f.path, c.ordinal, c.start_line, c.end_line, c.kind, c.symbol_kind, c.symbol_name FROM chunks c JOIN files f ON f.id = c.file_id ORDER BY 1, 2'),
    sqliteText(db, 'SELECT path, lang, size, hash, line_count, flags, secret_chunks FROM files ORDER BY path'),
    sqliteText(db, 'SELECT f.path, hex(d.data) FROM file_data d JOIN files f ON f.id = d.file_id ORDER BY 1'),
    sqliteText(db, 'SELECT count(*) FROM chunks_fts_docsize'),
    // Every FTS posting (term, column, offset) of every chunk by path and ordinal: the values each pass
    // bound, whichever thread derived them (a worker packs them: core/index/ready-rows.ts). Hashed: ~MBs.
    createHash('sha256').update(sqliteText(db, 'CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, chunks_fts, instance); SELECT f.path, c.ordinal, v.col, v.offset, v.term FROM temp.v v JOIN chunks c ON c.id = v.doc JOIN files f ON f.id = c.file_id ORDER BY 1, 2, 3, 4')).digest('hex'),
    sqliteText(db, "SELECT value FROM meta WHERE key IN ('skipped_counts', 'build_state', 'chunking_fingerprint') ORDER BY key"),
  ].join('\n--\n');
}

function workspace(): string {
  const root = copyWorkspace(roots[0]);
  roots.push(root);
  return root;
}

/** One index run of an opened workspace, closed after it (a failed run too). */
async function indexOnce(w: HciWorkspace): Promise<IndexSummary> {
  try {
    return await w.index();
  } finally {
    w.close();
  }
}

async function cliIndex(root: string, env: NodeJS.ProcessEnv = {}): Promise<IndexSummary> {
  const res = await runCli(['index', root, '--json', '-q'], env);
  expect(res.code, res.stderr).toBe(0);
  return JSON.parse(res.stdout) as IndexSummary;
}

beforeAll(async () => {
  ensureBuilt();
  const gen = generateWorkspace({ files: FILES, seed: 7 });
  // A file with a secret: its chunk is dropped and counted the same way in the worker.
  fs.writeFileSync(path.join(gen.root, 'appsettings.Secret.json'), '{\n  "Db": {\n    "Password": "hunter2-very-secret-Pa55word"\n  },\n  "Name": "x"\n}\n');
  // Edge cases of the text the worker parses: no lines, one empty line, CR and CRLF endings.
  fs.writeFileSync(path.join(gen.root, 'Empty.cs'), '');
  fs.writeFileSync(path.join(gen.root, 'Blank.cs'), '\n');
  fs.writeFileSync(path.join(gen.root, 'Crlf.cs'), 'namespace A;\r\npublic class Crlf\r\n{\r\n  public void Run() { }\r\n}\r\n');
  fs.writeFileSync(path.join(gen.root, 'OldMac.cs'), 'namespace A;\rpublic class OldMac\r{\r  public int X => 1;\r}\r');
  // The worker decodes its own copy of the bytes: a BOM, invalid UTF-8 and a binary file must come out as in-thread.
  fs.writeFileSync(path.join(gen.root, 'Bom.cs'), '\uFEFFnamespace A;\npublic class Bom { public void Run() { } }\n');
  fs.writeFileSync(path.join(gen.root, 'Latin1.cs'), Buffer.concat([Buffer.from('namespace A;\n// caf'), Buffer.from([0xe9, 0xff]), Buffer.from('\npublic class Latin1 { public int Y => 2; }\n')]));
  fs.writeFileSync(path.join(gen.root, 'Blob.cs'), Buffer.from([0x4d, 0x5a, 0x00, 0x00, 0x01, 0x02, 0x00, 0xff, 0x00, 0x10]));
  roots.push(gen.root);
  victim = gen.paths[Math.floor(FILES / 2)];
  // The reference: the same workspace indexed in-thread (a host without a pool), with Node's codec.
  const ref = workspace();
  const w = await HciWorkspace.open({ fs: createNodeWorkspaceFs(ref), storage: createNodeIndexStorage(ref), grammars: createNodeGrammarSource(), deflate: zlibCodec });
  try {
    const s = await w.index();
    expect(s.prepared_in_worker).toBe(0);
    expect(s.files_indexed).toBeGreaterThan(POOL_MIN_FILES);
  } finally {
    w.close();
  }
  reference = dump(ref);
}, 120_000);

afterAll(() => {
  for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
});

describe('prepare pool', () => {
  it('parses a large pass in the worker and writes the same index as the in-thread path', async () => {
    const root = workspace();
    const s = await cliIndex(root);
    expect(s.files_indexed).toBeGreaterThan(POOL_MIN_FILES);
    expect(s.prepared_in_worker).toBe(s.files_indexed);
    expect(dump(root)).toBe(reference);
  }, 120_000);

  it('with worker_rows "all", the worker makes every file\'s rows and the CLI writes the same index', async () => {
    const root = workspace();
    fs.mkdirSync(path.join(root, '.hci'), { recursive: true });
    fs.writeFileSync(path.join(root, '.hci', 'settings.toml'), 'worker_rows = "all"\n');
    const s = await cliIndex(root);
    expect(s.prepared_in_worker).toBe(s.files_indexed);
    expect(dump(root)).toBe(reference);
  }, 120_000);

  for (const mode of ['all', 'balanced', 'off'] as const) {
    it(`with worker_rows "${mode}" and two workers, files come back as rows ${mode === 'off' ? 'never' : mode === 'all' ? 'every time' : 'or outlines'}, and the index is the same`, async () => {
      const root = workspace();
      let asked = 0;
      let ready = 0;
      const w = await HciWorkspace.open(
        {
          fs: createNodeWorkspaceFs(root), storage: createNodeIndexStorage(root), grammars: createNodeGrammarSource(), deflate: zlibCodec,
          parsePool: (o) => {
            const pool = createNodeParsePool({ ...o, workers: 2 });
            return {
              extract: async (file, bytes, req) => {
                if (req?.rows) asked++;
                const r = await pool.extract(file, bytes, req);
                if (r.ready) ready++;
                return r;
              },
              close: () => pool.close(),
            };
          },
        },
        { settings: { worker_rows: mode } as never },
      );
      const s = await indexOnce(w);
      expect(s.prepared_in_worker).toBe(s.files_indexed);
      expect(ready).toBe(asked);
      if (mode === 'off') expect(asked).toBe(0);
      else if (mode === 'all') expect(asked).toBeGreaterThanOrEqual(s.files_indexed);
      else expect(asked).toBeGreaterThan(0);
      expect(dump(root)).toBe(reference);
    }, 120_000);
  }

  it('sizes the pool to the cores the main thread leaves, at most MAX_PARSE_WORKERS', () => {
    expect([1, 2, 3, 4, 16, 128].map(parseWorkerCount)).toEqual([1, 1, 2, 2, 2, 2].map((n) => Math.min(n, MAX_PARSE_WORKERS)));
    expect(MAX_PARSE_WORKERS).toBe(2);
  });

  it('a pool of two workers shares a pass between them and writes the same index as the in-thread path', async () => {
    const root = workspace();
    let pool: ReturnType<typeof createNodeParsePool> | undefined;
    const w = await HciWorkspace.open({
      fs: createNodeWorkspaceFs(root), storage: createNodeIndexStorage(root), grammars: createNodeGrammarSource(), deflate: zlibCodec,
      parsePool: (o) => (pool = createNodeParsePool({ ...o, workers: 2 })),
    });
    const s = await indexOnce(w);
    expect(pool!.size).toBe(2);
    expect(pool!.started).toBe(2);
    expect(s.prepared_in_worker).toBe(s.files_indexed);
    expect(dump(root)).toBe(reference);
  }, 120_000);

  it('ends the pool once its last file is answered, before the pass writes its last batches', async () => {
    // A worker's heap, grammars and tree-sitter memory are no use once every file is parsed: the main
    // thread still cuts and writes up to a window of files after that, then the final transaction,
    // where a pass's peak RSS was reached (36 MB of it the idle worker's on AvaloniaUI/Avalonia).
    const root = workspace();
    let pool: ReturnType<typeof createNodeParsePool> | undefined;
    const runningAtRelief: number[] = [];
    const w = await HciWorkspace.open({
      fs: createNodeWorkspaceFs(root), storage: createNodeIndexStorage(root), grammars: createNodeGrammarSource(), deflate: zlibCodec,
      parsePool: (o) => (pool = createNodeParsePool(o)),
      // Called after every write batch, the final one included.
      relieveMemory: () => runningAtRelief.push(pool?.running ?? -1),
    });
    const s = await indexOnce(w);
    expect(s.prepared_in_worker).toBe(s.files_indexed);
    expect(runningAtRelief.length).toBeGreaterThan(1);
    expect(runningAtRelief).toContain(1); // the worker ran while batches were written
    expect(runningAtRelief.at(-1)).toBe(0); // and had ended before the final batch was
    expect(dump(root)).toBe(reference);
  }, 120_000);

  it('keeps small passes in-thread', async () => {
    const root = workspace();
    await cliIndex(root);
    for (let i = 0; i < 5; i++) fs.appendFileSync(path.join(root, 'README.md'), `\nline ${i}\n`);
    fs.writeFileSync(path.join(root, 'src', 'Added.cs'), 'namespace A;\npublic class Added { public void Run() { } }\n');
    const s = await cliIndex(root);
    expect(s.files_indexed).toBe(2);
    expect(s.prepared_in_worker).toBe(0);
  }, 120_000);

  it('loses no file when the worker dies mid-pass: the rest is parsed in-thread', async () => {
    const root = workspace();
    // The fault is injected through the pool factory (no environment variable can trigger it in the product).
    const w = await HciWorkspace.open({
      fs: createNodeWorkspaceFs(root), storage: createNodeIndexStorage(root), grammars: createNodeGrammarSource(), deflate: zlibCodec,
      parsePool: (o) => createNodeParsePool({ ...o, faults: { exitOnPath: victim } }),
    });
    const s = await indexOnce(w);
    expect(s.prepared_in_worker).toBeGreaterThan(0);
    expect(s.prepared_in_worker).toBeLessThan(s.files_indexed);
    expect(dump(root)).toBe(reference);
  }, 120_000);

  it('the shipped CLI ignores the old test hook variable: a pass with it set parses every file in the worker', async () => {
    const root = workspace();
    const s = await cliIndex(root, { HCI_TEST_PARSE_WORKER_CRASH_ON: victim });
    expect(s.prepared_in_worker).toBe(s.files_indexed);
    expect(dump(root)).toBe(reference);
  }, 120_000);

  it('a cancelled pass stops the worker; the next pass completes the same index', async () => {
    const root = workspace();
    const w = await openWorkspace(root);
    try {
      const abort = new AbortController();
      const err = await w.index({ signal: abort.signal, onProgress: (p) => p.filesDone >= 250 && abort.abort() }).catch((e: unknown) => e);
      expect((err as HciError).code).toBe('cancelled');
      const s = await w.index();
      expect(s.files_indexed + s.files_unchanged).toBe(FILES + 7); // + 7 text files added above (Blob.cs is binary: skipped)
    } finally {
      w.close();
    }
    const after = dump(root);
    // Rows are the same; the skip counts are not (an unchanged file's secrets are counted by the pass that read it).
    const rows = (d: string) => d.split('\n--\n').slice(0, 4).join('\n--\n');
    expect(rows(after)).toBe(rows(reference));
  }, 120_000);
});

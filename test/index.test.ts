// The index on disk: incremental updates, cancellation, format versions and migrations, damaged
// files, settings, and the file as other SQLite tools see it (Debian's sqlite3 CLI).
// @lane cli
import { describe, it, expect, afterEach } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace, createNodeIndexStorage, loadEngine } from '../runtimes/node/index.ts';
import { IndexStore } from '../core/index/store.ts';
import { FORMAT_VERSION } from '../core/index/schema.ts';
import { HciError } from '../core/platform.ts';
import { createTmpWorkspace, type TmpWorkspace, csharpClass } from './helpers/tmp-workspace.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

async function tmp(files: Record<string, string | Uint8Array>): Promise<TmpWorkspace> {
  const ws = await createTmpWorkspace(files);
  cleanups.push(() => ws.cleanup());
  return ws;
}

function sqlite3(file: string, sql: string): string {
  return execFileSync('sqlite3', [file, sql], { encoding: 'utf8' }).trim();
}

async function counts(root: string) {
  const store = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 2000 });
  try {
    return await store.read((db) => ({
      files: Number(db.selectValue('SELECT count(*) FROM files')),
      chunks: Number(db.selectValue('SELECT count(*) FROM chunks')),
      ftsRows: Number(db.selectValue('SELECT count(*) FROM chunks_fts_docsize')),
      paths: db.selectValues('SELECT path FROM files ORDER BY path') as string[],
    }));
  } finally {
    store.close();
  }
}

describe('incremental indexing', () => {
  it('adds, changes and deletes files, and skips unchanged ones', async () => {
    const ws = await tmp({ 'src/Alpha.cs': csharpClass('Alpha'), 'src/Beta.cs': csharpClass('Beta'), 'docs/readme.md': '# Readme\n\nAlpha and beta.\n' });
    const w = await openWorkspace(ws.root);
    try {
      const first = await w.index();
      expect(first).toMatchObject({ files_scanned: 3, files_indexed: 3, files_unchanged: 0, files_removed: 0 });

      const again = await w.index();
      expect(again).toMatchObject({ files_indexed: 0, files_unchanged: 3, files_removed: 0, bytes_read: 0 });

      await ws.write({ 'src/Gamma.cs': csharpClass('Gamma'), 'src/Alpha.cs': csharpClass('Alpha', '    public int AlphaChanged => 1;\n') });
      fs.rmSync(ws.abs('src/Beta.cs'));
      const third = await w.index();
      expect(third).toMatchObject({ files_indexed: 2, files_unchanged: 1, files_removed: 1 });
      expect(third.generation).toBeGreaterThan(first.generation);

      expect((await w.search({ query: 'RunGamma' })).hits[0]?.path).toBe('src/Gamma.cs');
      expect((await w.search({ query: 'AlphaChanged' })).hits[0]?.path).toBe('src/Alpha.cs');
      const gone = await w.search({ query: 'RunBeta' });
      expect(gone.status).toBe('empty');
      expect(gone.hits).toEqual([]);
      expect(gone.hint).toMatch(/not proof of absence/);
    } finally {
      w.close();
    }
    const c = await counts(ws.root);
    expect(c.paths).toEqual(['docs/readme.md', 'src/Alpha.cs', 'src/Gamma.cs']);
    expect(c.ftsRows).toBe(c.chunks);
  });

  it('a touched file with the same content is not re-chunked', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('A') });
    const w = await openWorkspace(ws.root);
    try {
      await w.index();
      const later = new Date(Date.now() + 5000);
      fs.utimesSync(ws.abs('a.cs'), later, later);
      const s = await w.index();
      expect(s).toMatchObject({ files_indexed: 0, files_unchanged: 1 });
      expect(s.bytes_read).toBeGreaterThan(0);
      expect((await w.index()).bytes_read).toBe(0);
    } finally {
      w.close();
    }
  });

  it('re-chunks everything when chunk settings change, and reports progress', async () => {
    const long = Array.from({ length: 300 }, (_, i) => `// line ${i + 1} token${i}`).join('\n');
    const ws = await tmp({ 'big.cs': long });
    let w = await openWorkspace(ws.root);
    await w.index();
    const before = await counts(ws.root);
    w.close();
    fs.mkdirSync(ws.abs('.hci'), { recursive: true });
    fs.writeFileSync(ws.abs('.hci/settings.toml'), 'chunk_lines = 50\nchunk_overlap_lines = 5\n');
    w = await openWorkspace(ws.root);
    const phases: string[] = [];
    try {
      const s = await w.index({ onProgress: (p) => phases.push(p.phase) });
      expect(s.files_indexed).toBe(1);
      expect(phases[0]).toBe('scan');
      expect(phases.at(-1)).toBe('done');
    } finally {
      w.close();
    }
    const after = await counts(ws.root);
    expect(before.chunks).toBe(3); // 1-110, 96-205, 191-300
    expect(after.chunks).toBe(7); // windows of 50 with 5 overlap over 300 lines
  });

  it('cancellation leaves a consistent index that the next run completes', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`src/F${i}.cs`] = csharpClass(`F${i}`, `    // ${'x'.repeat(200)}\n`.repeat(20));
    const ws = await tmp(files);
    const w = await openWorkspace(ws.root);
    try {
      const abort = new AbortController();
      const err = await w
        .index({ signal: abort.signal, batchMs: 5, onProgress: (p) => p.filesDone >= 100 && abort.abort() })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HciError);
      expect((err as HciError).code).toBe('cancelled');
      const mid = await counts(ws.root);
      expect(mid.files).toBeGreaterThan(0);
      expect(mid.files).toBeLessThan(400);
      expect(mid.ftsRows).toBe(mid.chunks);
      const status = await w.status();
      expect(status.index?.build_state).toBe('partial');
      const s = await w.index();
      expect(s.files_unchanged + s.files_indexed).toBe(400);
      expect((await w.status()).index?.build_state).toBe('complete');
    } finally {
      w.close();
    }
    const done = await counts(ws.root);
    expect(done.files).toBe(400);
    expect(sqlite3(ws.abs('.hci/index.sqlite'), 'PRAGMA integrity_check')).toBe('ok');
  });
});

describe('the index file', () => {
  it('reports a damaged stored text as index_corrupt, and --full rebuilds past it', async () => {
    const ws = await tmp({ 'src/A.cs': csharpClass('Alpha'), 'src/B.cs': csharpClass('Beta') });
    const w = await openWorkspace(ws.root);
    try {
      await w.index();
      const file = ws.abs('.hci/index.sqlite');
      sqlite3(file, "UPDATE file_data SET data = x'deadbeef00' WHERE file_id = (SELECT id FROM files WHERE path = 'src/A.cs')");
      const r = await w.search({ query: 'RunAlpha' });
      expect(r.status).toBe('error');
      expect(r.error).toMatchObject({ code: 'index_corrupt', message: expect.stringContaining('src/A.cs') });
      expect(r.hint).toMatch(/hci index --full/);
      expect((await w.search({ query: 'RunBeta' })).hits[0]?.path).toBe('src/B.cs'); // the rest still answers
      fs.appendFileSync(ws.abs('src/A.cs'), '// edited\n');
      await expect(w.index()).rejects.toMatchObject({ code: 'index_corrupt' });
      const s = await w.index({ full: true });
      expect(s.files_indexed).toBe(2);
      expect((await w.search({ query: 'RunAlpha' })).hits[0]?.path).toBe('src/A.cs');
      expect(sqlite3(file, 'PRAGMA integrity_check')).toBe('ok');
    } finally {
      w.close();
    }
  });

  it('links the owner records each open database writes once into its locks, instead of writing one per transaction', async () => {
    const ws = await tmp({ 'src/A.cs': csharpClass('Alpha') });
    const w = await openWorkspace(ws.root);
    // `<lock>.<pid>.<token>`: the writer lock's record and the reader mark's (runtimes/shared/vfs-lock.ts).
    const ownerFiles = () => fs.readdirSync(ws.abs('.hci')).filter((n) => /^index\.sqlite\.lock\.\d+\.[0-9a-f]{24}$/.test(n)).sort();
    const heldNow = () => fs.readdirSync(ws.abs('.hci')).filter((n) => n === 'index.sqlite.lock' || n.startsWith('index.sqlite.lock.r.') || n === 'index.sqlite.lock.pending');
    try {
      await w.index();
      await w.search({ query: 'RunAlpha' });
      const first = ownerFiles();
      expect(first).toHaveLength(2);
      for (const f of first) expect(f).toContain(`.${process.pid}.`);
      for (let i = 0; i < 5; i++) await w.search({ query: `RunAlpha ${i}` });
      expect(ownerFiles()).toEqual(first);
      expect(heldNow()).toEqual([]); // released between transactions: no lock, no reader mark, no pending
    } finally {
      w.close();
    }
    expect(ownerFiles()).toEqual([]);
    expect(fs.readdirSync(ws.abs('.hci')).filter((n) => n.startsWith('indexer.lock') || n.startsWith('index.sqlite.lock'))).toEqual([]);
  });

  it('hands the pages a pass frees back to the file (auto_vacuum = incremental)', async () => {
    const files: Record<string, string> = {};
    // Distinct words, so neither deflate nor FTS5 can fold the files into a few pages.
    const words = (i: number) => Array.from({ length: 400 }, (_, j) => `w${((i * 7919 + j * 104729) % 999983).toString(36)}`).join(' ');
    for (let i = 0; i < 60; i++) files[`src/S${i}.cs`] = csharpClass(`Service${i}`, `    // ${words(i)}\n`);
    const ws = await tmp(files);
    const w = await openWorkspace(ws.root);
    // One transaction per pass: batches are cut by time (batchMs), and how many FTS5 segments a pass
    // leaves (so whether the next pass's merge drops the deleted rows' entries) must not depend on
    // how loaded the machine is.
    const onePass = { batchMs: 1e9 };
    const pages = (file: string, table: string) => Number(sqlite3(file, `SELECT count(*) FROM dbstat WHERE name = '${table}'`));
    try {
      await w.index(onePass);
      const file = ws.abs('.hci/index.sqlite');
      expect(sqlite3(file, 'PRAGMA auto_vacuum')).toBe('2');
      const dataPages = pages(file, 'file_data');
      for (let i = 0; i < 40; i++) fs.rmSync(ws.abs(`src/S${i}.cs`));
      expect((await w.index(onePass)).files_removed).toBe(40);
      // The pass freed pages (two thirds of the stored file blobs went) and none stays free: the file
      // is its used pages and nothing more. (FTS5 keeps delete markers until its segments merge, so
      // the file as a whole need not shrink.)
      expect(pages(file, 'file_data')).toBeLessThan(dataPages * 0.6);
      expect(sqlite3(file, 'PRAGMA freelist_count')).toBe('0');
      expect(fs.statSync(file).size).toBe(Number(sqlite3(file, 'PRAGMA page_count')) * Number(sqlite3(file, 'PRAGMA page_size')));
      expect(sqlite3(file, 'PRAGMA integrity_check')).toBe('ok');
    } finally {
      w.close();
    }
  });

  it("is a plain SQLite file that Debian's sqlite3 CLI opens, checks and searches", async () => {
    const ws = await tmp({ 'src/CatalogService.cs': csharpClass('CatalogService', '    public void GetCatalogItems() { }\n'), 'README.md': '# Shop\n' });
    const w = await openWorkspace(ws.root);
    await w.index();
    w.close();
    const file = ws.abs('.hci/index.sqlite');
    expect(fs.existsSync(`${file}-journal`)).toBe(false);
    expect(sqlite3(file, 'PRAGMA integrity_check')).toBe('ok');
    expect(sqlite3(file, "SELECT value FROM meta WHERE key = 'format_version'")).toBe(String(FORMAT_VERSION));
    expect(Number(sqlite3(file, "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'catalog'"))).toBeGreaterThan(0);
    expect(sqlite3(file, "SELECT f.path FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id WHERE chunks_fts MATCH 'getcatalogitems'")).toBe('src/CatalogService.cs');
    expect(sqlite3(file, "INSERT INTO chunks_fts(chunks_fts) VALUES('integrity-check'); SELECT 'fts ok'")).toBe('fts ok');
  });

  it('says no_index (status and search) before the first run', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('A') });
    const w = await openWorkspace(ws.root);
    try {
      const r = await w.search({ query: 'A' });
      expect(r.status).toBe('no_index');
      expect(r.error?.code).toBe('no_index');
      expect(r.hint).toMatch(/hci index/);
      expect((await w.status()).status).toBe('no_index');
      expect(fs.existsSync(ws.abs('.hci/index.sqlite'))).toBe(false);
    } finally {
      w.close();
    }
  });

  it.each([
    ['99', 'index_too_new'],
    ['0', 'index_unrecognized'],
  ])('format_version %s is refused with %s, and `index --full` rebuilds it', async (version, code) => {
    const ws = await tmp({ 'a.cs': csharpClass('Alpha') });
    let w = await openWorkspace(ws.root);
    await w.index();
    w.close();
    sqlite3(ws.abs('.hci/index.sqlite'), `UPDATE meta SET value = '${version}' WHERE key = 'format_version'`);
    w = await openWorkspace(ws.root);
    try {
      const r = await w.search({ query: 'RunAlpha' });
      expect(r.status).toBe('error');
      expect(r.error?.code).toBe(code);
      expect(r.hint).toMatch(/index --full/);
      await expect(w.index()).rejects.toMatchObject({ code });
      await w.index({ full: true });
      expect((await w.search({ query: 'RunAlpha' })).hits[0]?.path).toBe('a.cs');
    } finally {
      w.close();
    }
  });

  it('an older analyzer version needs a rebuild, said clearly', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('Alpha') });
    let w = await openWorkspace(ws.root);
    await w.index();
    w.close();
    sqlite3(ws.abs('.hci/index.sqlite'), "UPDATE meta SET value = '0' WHERE key = 'analyzer_version'");
    w = await openWorkspace(ws.root);
    try {
      const r = await w.search({ query: 'RunAlpha' });
      expect(r.error?.code).toBe('index_outdated');
      expect(r.error?.message).toMatch(/analyzer/);
    } finally {
      w.close();
    }
  });

  it('a damaged index file gives index_corrupt, and `index --full` repairs it', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('Alpha') });
    let w = await openWorkspace(ws.root);
    await w.index();
    w.close();
    fs.writeFileSync(ws.abs('.hci/index.sqlite'), Buffer.alloc(8192, 0x41));
    w = await openWorkspace(ws.root);
    try {
      const r = await w.search({ query: 'RunAlpha' });
      expect(r.status).toBe('error');
      expect(r.error?.code).toBe('index_corrupt');
      await w.index({ full: true });
      expect((await w.search({ query: 'RunAlpha' })).status).toBe('ok');
    } finally {
      w.close();
    }
    expect(sqlite3(ws.abs('.hci/index.sqlite'), 'PRAGMA integrity_check')).toBe('ok');
  });

  it('rejects invalid settings with the key and the reason', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('A'), '.hci/settings.toml': 'chunk_lines = "many"\nmax_indexed_file_bytes = 100\nbogus_key = 1\n' });
    const err = await openWorkspace(ws.root).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(HciError);
    expect((err as HciError).code).toBe('invalid_settings');
    expect((err as HciError).message).toMatch(/chunk_lines/);
    expect((err as HciError).message).toMatch(/bogus_key/);
    fs.writeFileSync(ws.abs('.hci/settings.toml'), 'chunk_lines = [1,\n');
    await expect(openWorkspace(ws.root)).rejects.toMatchObject({ code: 'invalid_settings', message: /not valid TOML/ });
  });

  it('bounds lock_timeout_ms (a huge wait on a stuck lock would hang every search)', async () => {
    const ws = await tmp({ 'a.cs': csharpClass('A'), '.hci/settings.toml': 'lock_timeout_ms = 1e15\n' });
    const err = await openWorkspace(ws.root).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'invalid_settings', message: /lock_timeout_ms: must be at most 600000 \(10 minutes\)/ });
    expect((err as HciError).hint).toMatch(/lock_timeout_ms/);
    await expect(openWorkspace(ws.root, { settings: { lock_timeout_ms: 600_001 } })).rejects.toMatchObject({ code: 'invalid_settings' });
    fs.writeFileSync(ws.abs('.hci/settings.toml'), 'lock_timeout_ms = 600000\n');
    (await openWorkspace(ws.root)).close();
  });

  it('keeps invalid UTF-8 and binary files from crashing a run, and counts them', async () => {
    const ws = await tmp({
      'bad.cs': new Uint8Array([...Buffer.from('class Bad { // caf'), 0xe9, 0xff, ...Buffer.from(' ValidAfterwards }\n')]),
      'blob.json': new Uint8Array([0x7b, 0x00, 0x01, 0x02, 0x7d]),
      'ok.cs': csharpClass('Ok'),
    });
    const w = await openWorkspace(ws.root);
    try {
      const s = await w.index();
      expect(s.files_indexed).toBe(2);
      expect(s.skipped.binary).toBe(1);
      expect((await w.search({ query: 'ValidAfterwards' })).hits[0]?.path).toBe('bad.cs');
      const st = await w.status();
      expect(st.skipped.binary).toBe(1);
    } finally {
      w.close();
    }
  });
});

describe('format migrations', () => {
  it('migrates an older format step by step, or says a rebuild is needed', async () => {
    const { ensureSchema } = await import('../core/index/schema.ts');
    const engine = await loadEngine();
    const db = new engine.sqlite3.oo1.DB(':memory:', 'c');
    try {
      expect(ensureSchema(db)).toBe('fresh');
      expect(ensureSchema(db)).toBe('current');
      const v = FORMAT_VERSION;
      const step1 = { from: v, to: v + 1, up: (d: typeof db) => d.exec('CREATE TABLE added_in_step1(x)') };
      const step2 = { from: v + 1, to: v + 2, up: (d: typeof db) => d.exec('CREATE TABLE added_in_step2(x)') };
      // A build that writes format v+2 but only knows (v+1)→(v+2) cannot migrate a format-v index.
      expect(() => ensureSchema(db, { target: v + 2, migrations: [step2] })).toThrow(new RegExp(`older than this hci's format ${v + 2} and cannot be migrated`));
      expect(ensureSchema(db, { target: v + 2, migrations: [step1, step2] })).toBe('migrated');
      expect(db.selectValue("SELECT value FROM meta WHERE key = 'format_version'")).toBe(String(v + 2));
      expect(db.selectValues("SELECT name FROM sqlite_master WHERE name LIKE 'added_in_%' ORDER BY name")).toEqual(['added_in_step1', 'added_in_step2']);
      expect(() => ensureSchema(db, { target: v + 1, migrations: [] })).toThrow(/newer hci/);
    } finally {
      db.close();
    }
  });
});

/** The tables of format 2 (chunk text per chunk, a symbols table), as hci 0.x wrote them. */
const FORMAT_2_DDL = `
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE files(id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE, lang TEXT NOT NULL, size INTEGER NOT NULL,
  mtime_ms INTEGER NOT NULL, hash TEXT NOT NULL, line_count INTEGER NOT NULL, flags INTEGER NOT NULL DEFAULT 0,
  secret_chunks INTEGER NOT NULL DEFAULT 0, generation INTEGER NOT NULL);
CREATE TABLE chunks(id INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL REFERENCES files(id), ordinal INTEGER NOT NULL,
  start_line INTEGER NOT NULL, end_line INTEGER NOT NULL, kind TEXT NOT NULL, symbol_kind TEXT, symbol_name TEXT, member_key TEXT,
  header TEXT NOT NULL DEFAULT '', body TEXT NOT NULL);
CREATE VIRTUAL TABLE chunks_fts USING fts5(path, symbol, header, body, idents, content='', tokenize='porter unicode61 remove_diacritics 2');
CREATE TABLE skipped(path TEXT PRIMARY KEY, reason TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE symbols(id INTEGER PRIMARY KEY AUTOINCREMENT, file_id INTEGER NOT NULL REFERENCES files(id), parent_id INTEGER,
  ordinal INTEGER NOT NULL, depth INTEGER NOT NULL, kind TEXT NOT NULL, name TEXT NOT NULL, member_key TEXT,
  start_line INTEGER NOT NULL, end_line INTEGER NOT NULL);
INSERT INTO meta VALUES ('format_version', '2'), ('analyzer_version', '1'), ('generation', '7'), ('build_state', 'complete'),
  ('chunking_fingerprint', '{"v":2}');
INSERT INTO files VALUES (1, 'src/A.cs', 'csharp', 10, 1, 'ab', 3, 0, 0, 7);
INSERT INTO chunks VALUES (1, 1, 0, 1, 3, 'member', 'method', 'RunOld', 'Demo.A.RunOld()', 'class A', 'void RunOld() { }');
INSERT INTO chunks_fts(rowid, path, symbol, header, body, idents) VALUES (1, 'src/A.cs', 'RunOld', 'class A', 'void RunOld() { }', 'run old');
INSERT INTO symbols VALUES (1, 1, NULL, 0, 0, 'class', 'A', 'Demo.A', 1, 3);
`;

describe('the v2 → v3 migration (compressed per-file text)', () => {
  it('replaces the content tables of a format-2 index on first open and re-indexes every file on the next run', async () => {
    const ws = await tmp({ 'src/A.cs': csharpClass('Alpha'), 'docs/a.md': '# A\n\ntext\n' });
    const file = ws.abs('.hci/index.sqlite');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    sqlite3(file, FORMAT_2_DDL);
    const w = await openWorkspace(ws.root);
    try {
      const before = await w.search({ query: 'RunOld' });
      expect(before.hits).toEqual([]);
      expect(sqlite3(file, "SELECT value FROM meta WHERE key = 'format_version'")).toBe(String(FORMAT_VERSION));
      expect(sqlite3(file, "SELECT count(*) FROM sqlite_master WHERE name IN ('symbols')")).toBe('0');
      expect(sqlite3(file, "SELECT count(*) FROM sqlite_master WHERE name IN ('file_data')")).toBe('1');
      expect(sqlite3(file, 'SELECT count(*) FROM files')).toBe('0');
      const s = await w.index();
      expect(s.files_indexed).toBe(2);
      expect((await w.search({ query: 'RunAlpha' })).hits[0]?.path).toBe('src/A.cs');
      expect((await w.resolve({ member_key: 'Demo.Alpha.RunAlpha()' })).locations.map((l) => l.path)).toEqual(['src/A.cs']);
    } finally {
      w.close();
    }
  });
});

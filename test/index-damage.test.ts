// Damage of every kind an index file meets — a flipped byte, a table or column gone, a meta value
// mangled, a truncated or overwritten file, an unreadable FTS structure (issue 39 defect 2: one flipped
// byte in the meta page made `generation` NaN and every `--full` fail with `internal` NOT NULL text;
// a dropped `chunks` table gave `internal` "no such table" and search `query_failed`; `status` said
// `ok` for 9 of 25 damaged files). For each, through the service the CLI and MCP answer from (on a
// small workspace, so 24 rebuilds stay quick): `status` says `damaged` with the remedy, search answers
// `index_corrupt` (or its hits, when the damage is off its way), `index --full` ends with a file Debian's sqlite3 finds sound (FTS included) and says
// it moved the damaged one aside, and then status and search are ok. Two of them again end to end
// through the real CLI (exit codes, JSON), and no answer of any verb is `internal` with SQLite's text.
// @lane cli
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, sqliteText } from './helpers/hci-process.ts';
import { HciService } from '../core/service/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';
import { REPO } from './helpers/deno.ts';

const SAMPLE = path.join(REPO, 'test/sample-workspace');
const temp: string[] = [];
const dbOf = (root: string) => path.join(root, '.hci', 'index.sqlite');
type Answer = { status: string; error?: { code: string; message: string }; hint?: string; hits?: unknown[]; repaired?: { reason: string; moved_to: string | null } };
const json = (stdout: string, what: string): Answer => {
  try {
    return JSON.parse(stdout) as Answer;
  } catch {
    throw new Error(`${what}: no JSON: ${stdout.slice(0, 400)}`);
  }
};
const sql = (db: string, statements: string) => sqliteText(db, statements, { write: true });

/** Overwrites `bytes` at `offset`. */
function poke(file: string, offset: number, bytes: Buffer): void {
  const fd = fs.openSync(file, 'r+');
  fs.writeSync(fd, bytes, 0, bytes.length, offset);
  fs.closeSync(fd);
}

/** The page of a table's root, 1-based, and the page size. */
function rootPage(db: string, name: string): { page: number; size: number } {
  return { page: Number(sqliteText(db, `SELECT rootpage FROM sqlite_master WHERE name = '${name}'`)), size: Number(sqliteText(db, 'PRAGMA page_size')) };
}

/** One byte flipped in the meta page: the first digit of the `generation` row's value becomes a letter (the record stays well formed). */
function flipGeneration(db: string): void {
  const { page, size } = rootPage(db, 'meta');
  const text = fs.readFileSync(db).subarray((page - 1) * size, page * size).toString('latin1');
  const m = /generation(?=\d)/.exec(text); // the row: its key then its value, side by side in the record
  if (!m) throw new Error('the generation row is not on the meta root page');
  poke(db, (page - 1) * size + m.index + 'generation'.length, Buffer.from('x'));
}

const garbagePage = (db: string, table: string) => {
  const { page, size } = rootPage(db, table);
  poke(db, (page - 1) * size, Buffer.alloc(size, 0xa5));
};

const DAMAGE: Array<[string, (db: string) => void]> = [
  ['a flipped byte in the meta page (generation not a number)', flipGeneration],
  ['meta generation removed', (db) => sql(db, "DELETE FROM meta WHERE key = 'generation'")],
  ['meta format_version mangled', (db) => sql(db, "UPDATE meta SET value = '7x' WHERE key = 'format_version'")],
  ['meta build_state mangled', (db) => sql(db, "UPDATE meta SET value = 'compl' WHERE key = 'build_state'")],
  ['the meta table dropped', (db) => sql(db, 'DROP TABLE meta')],
  ['the chunks table dropped', (db) => sql(db, 'DROP TABLE chunks')],
  ['the files table dropped', (db) => sql(db, 'DROP TABLE files')],
  ['the file_data table dropped', (db) => sql(db, 'DROP TABLE file_data')],
  ['the skipped table dropped', (db) => sql(db, 'DROP TABLE skipped')],
  ['the chunks_fts table dropped', (db) => sql(db, 'DROP TABLE chunks_fts')],
  ['an FTS shadow table dropped', (db) => sql(db, 'DROP TABLE chunks_fts_data')],
  ['an index dropped', (db) => sql(db, 'DROP INDEX chunks_by_file')],
  ['a column renamed', (db) => sql(db, 'ALTER TABLE chunks RENAME COLUMN kind TO kind2')],
  ['a column dropped', (db) => sql(db, 'ALTER TABLE files DROP COLUMN flags')],
  ['the FTS structure record overwritten', (db) => sql(db, "UPDATE chunks_fts_data SET block = x'00000000ffff' WHERE id = 10")],
  ['a table\'s schema text mangled', (db) => sql(db, "PRAGMA writable_schema = 1; UPDATE sqlite_master SET sql = 'CREATE TABLE chunks(' WHERE name = 'chunks'")],
  ['garbage over the header page', (db) => poke(db, 0, Buffer.alloc(Number(sqliteText(db, 'PRAGMA page_size')), 0xa5))],
  ['garbage over the chunks root page', (db) => garbagePage(db, 'chunks')],
  ['garbage over the files root page', (db) => garbagePage(db, 'files')],
  ['garbage over the FTS data root page', (db) => garbagePage(db, 'chunks_fts_data')],
  ['garbage over the last page', (db) => {
    const size = Number(sqliteText(db, 'PRAGMA page_size'));
    poke(db, fs.statSync(db).size - size, Buffer.alloc(size, 0x5a));
  }],
  ['the file truncated to half', (db) => fs.truncateSync(db, Math.floor(fs.statSync(db).size / 2 / 8192) * 8192)],
  ['the file truncated mid-page', (db) => fs.truncateSync(db, 10_000)],
  ['a text file in its place', (db) => fs.writeFileSync(db, 'this is not a database\n'.repeat(50))],
];

/** A small workspace: a dozen files, one of them CatalogService. */
function smallWorkspace(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-damage-small-'));
  temp.push(root);
  const src = path.join(SAMPLE, 'src/Contoso.Shop.Application/Catalog');
  fs.mkdirSync(path.join(root, 'src'), { recursive: true });
  for (const f of fs.readdirSync(src)) fs.copyFileSync(path.join(src, f), path.join(root, 'src', f));
  fs.copyFileSync(path.join(SAMPLE, 'README.md'), path.join(root, 'README.md'));
  return root;
}

/** A copy of a built workspace's folder with its index. */
function copyOf(from: string): string {
  const root = fs.mkdtempSync(path.join(path.dirname(from), '.hci-damage-'));
  temp.push(root);
  fs.cpSync(from, root, { recursive: true });
  return root;
}

let small = '';
let built = '';
beforeAll(async () => {
  ensureBuilt();
  small = smallWorkspace();
  const svc = new HciService({ root: small, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
  await svc.index();
  await svc.close();
  built = copyWorkspace(SAMPLE, 'hci-damage-');
  temp.push(built);
  const r = await runCli(['index', built, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}, 120_000);

afterAll(() => {
  for (const d of temp) fs.rmSync(d, { recursive: true, force: true });
});

describe('a damaged index', () => {
  it.each(DAMAGE)('%s: status says damaged, search index_corrupt, --full moves it aside and ends healthy', async (what, damage) => {
    const root = copyOf(small);
    damage(dbOf(root));
    let svc = new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    try {
      const status = await svc.call('status', {});
      expect(status.status, `${what}: status ${JSON.stringify(status.error)}`).toBe('damaged');
      expect(status.error?.code).toBe('index_corrupt');
      expect(status.hint).toMatch(/hci index --full/);
      // Search reads only what it needs: damage on its way is index_corrupt, elsewhere it still answers.
      const search = await svc.call('search', { query: 'CatalogService' });
      if (search.status !== 'ok') {
        expect(search.error?.code, `${what}: search ${JSON.stringify(search.error)}`).toBe('index_corrupt');
        expect(search.hint).toMatch(/hci index --full/);
      }

      const rebuilt = await svc.index({ full: true });
      expect(rebuilt.repaired?.reason, what).toMatch(/damaged|not an SQLite file|not an hci index/);
      expect(rebuilt.repaired?.moved_to, what).toBe(`${dbOf(root)}.damaged`);
      expect(fs.existsSync(`${dbOf(root)}.damaged`)).toBe(true);
    } finally {
      await svc.close();
    }
    expect(sqliteText(dbOf(root), 'PRAGMA integrity_check'), what).toBe('ok');
    expect(sql(dbOf(root), "INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 0); SELECT 'ok'"), what).toBe('ok');
    svc = new HciService({ root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    try {
      expect((await svc.call('status', {})).status, what).toBe('ok');
      const found = await svc.call('search', { query: 'CatalogService' });
      expect(found.status, what).toBe('ok');
      expect(found.hits.length, what).toBeGreaterThan(0);
    } finally {
      await svc.close();
    }
  }, 60_000);

  it.each([DAMAGE[0], DAMAGE[5]])('%s, through the CLI: exit 5 and the JSON, then --full exit 0 saying so', async (what, damage) => {
    const root = copyOf(built);
    damage(dbOf(root));
    const st = await runCli(['status', '--root', root, '--json']);
    expect(st.code, st.stdout).toBe(5);
    expect(json(st.stdout, 'status')).toMatchObject({ status: 'damaged', error: { code: 'index_corrupt' } });
    const se = await runCli(['search', 'CatalogService', '--root', root]);
    expect(se.stderr, what).toMatch(/damaged[\s\S]*hint: run `hci index --full`/);
    const full = await runCli(['index', root, '--full', '--json']);
    expect(full.code, full.stdout + full.stderr).toBe(0);
    expect(json(full.stdout, '--full').repaired?.moved_to).toBe(`${dbOf(root)}.damaged`);
    const human = await runCli(['index', root, '--full']);
    expect(human.code).toBe(0);
    expect(human.stdout + human.stderr, 'a second --full over the sound file repairs nothing').not.toMatch(/repaired/);
    expect(json((await runCli(['status', '--root', root, '--json'])).stdout, 'status after').status).toBe('ok');
  }, 120_000);

  it('a mangled last-run record (for people only) leaves status and search working', async () => {
    const root = copyOf(built);
    sql(dbOf(root), "UPDATE meta SET value = '{\"generation\":x2' WHERE key = 'last_run'");
    const st = json((await runCli(['status', '--root', root, '--json'])).stdout, 'status');
    expect(st.status, JSON.stringify(st.error)).toBe('ok');
    expect((st as { last_run?: unknown }).last_run).toBeNull();
    expect(json((await runCli(['search', 'CatalogService', '--root', root, '--json'])).stdout, 'search').status).toBe('ok');
  }, 60_000);

  it('never answers internal with SQLite\'s own words, whatever the damage', async () => {
    const root = copyOf(built);
    sql(dbOf(root), 'DROP TABLE chunks; DROP TABLE files_grams');
    const calls = [
      ['search', 'CatalogService', '--root', root],
      ['search', 'class CatalogService', '--mode', 'literal', '--root', root],
      ['outline', 'src/Contoso.Shop.Application/Catalog/CatalogService.cs', '--root', root],
      ['resolve', 'CatalogService', '--root', root],
      ['status', '--root', root],
      ['index', root],
    ];
    for (const args of calls) {
      const r = await runCli([...args, '--json']);
      const a = json(r.stdout, args[0]);
      expect(a.error?.code, `${args[0]}: ${r.stdout}`).toBe('index_corrupt');
      expect(r.stdout + r.stderr, args[0]).not.toMatch(/SQLITE_[A-Z]+|sqlite3 result code/);
    }
  }, 120_000);
});

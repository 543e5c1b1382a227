// The CLI's edges as a new user meets them (issue 17 items 6 and 9), under Node and Deno: a missing or
// non-folder root (never created, exit 2, "folder not found"), a relative outline/resolve path with
// --root (the current folder, then the root) and a hint that says so, an unquoted `-path:` query
// filter (a query word, not the --path option), usage errors and unopenable workspaces as the verb's
// JSON, an `explain` of a hit id this index never had, and no raw SQLite text on stderr when a page
// is damaged; the progress display's phase, elapsed time and ETA.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import { explainResponse, failureAnswer, indexAnswer, outlineResponse, resolveResponse, searchResponse, statusReport } from '../core/contract/index.ts';
import { copySample, ensureBuilt, HCI_BIN } from './helpers/mcp-harness.ts';
import { denoFlags, DENO_CLI } from './helpers/deno.ts';
import { denoBinary } from './helpers/runtimes.ts';
import { formatProgress } from '../runtimes/cli/format.ts';
import { CLI_RUNTIMES, cliJson, expectContract, runHci, type CliRuntimeName } from './helpers/cli-json.ts';
import { IndexStore } from '../core/index/store.ts';
import { createNodeIndexStorage, loadEngine } from '../runtimes/node/index.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

const FILE = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';

/** Overwrites the root pages of `tables` with garbage: the file still opens, reading those tables fails in a step. */
async function damageTables(root: string, tables: string[]): Promise<void> {
  const probe = await IndexStore.open(createNodeIndexStorage(root), await loadEngine(), { create: false, lockTimeoutMs: 2000 });
  const { pages, size } = await probe.read((db) => ({
    pages: tables.map((t) => Number(db.selectValue('SELECT rootpage FROM sqlite_master WHERE name = ?', [t]))),
    size: Number(db.selectValue('PRAGMA page_size')),
  }));
  probe.close();
  const fd = fs.openSync(path.join(root, '.hci', 'index.sqlite'), 'r+');
  for (const page of pages) fs.writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (page - 1) * size);
  fs.closeSync(fd);
}

describe.each(CLI_RUNTIMES)('the %s CLI at its edges', (runtime: CliRuntimeName) => {
  const ws = copySample(`hci-cli-edges-${runtime}-`);
  const scratch = tmpDir(`hci-cli-edges-${runtime}-x-`);
  const run = (args: string[], cwd?: string) => runHci(runtime, ws.root, args, { cwd, denoExtra: [`--allow-read=${scratch}`, `--allow-write=${scratch}`] });
  const json = (args: string[], schema: z.ZodType, code: number, cwd?: string) => {
    const r = cliJson(runtime, ws.root, [...args, '--json'], { cwd, denoExtra: [`--allow-read=${scratch}`, `--allow-write=${scratch}`] });
    expect(r.code, `hci ${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(code);
    expectContract(schema, r.json, `hci ${args.join(' ')}`);
    expect(r.stderr, 'nothing but the JSON with --json').toBe('');
    return r.json;
  };

  beforeAll(() => {
    ensureBuilt();
    expect(runHci('node', ws.root, ['index', ws.root, '-q']).code).toBe(0);
  }, 60_000);
  afterAll(() => {
    ws.cleanup();
    fs.rmSync(scratch, { recursive: true, force: true });
  });

  it('refuses a missing root (exit 2, "folder not found") and never creates it', () => {
    const missing = path.join(scratch, 'no', 'such', 'folder');
    const r = run(['index', missing]);
    expect(r.code, r.stdout + r.stderr).toBe(2);
    expect(r.stderr).toMatch(/workspace folder not found: .*no[\\/]such[\\/]folder/);
    expect(r.stderr).toMatch(/hint: /);
    expect(fs.existsSync(path.join(scratch, 'no'))).toBe(false);
    expect(json(['index', missing], failureAnswer, 2).error.code).toBe('root_not_found');
    for (const [verb, schema] of [[['search', 'catalog'], searchResponse], [['status'], statusReport], [['explain', '1.abc'], explainResponse], [['resolve', 'A.B()'], resolveResponse]] as const) {
      const h = run([...verb, '--root', missing]);
      expect(h.code, `${verb[0]}: ${h.stderr}`).toBe(2);
      expect(h.stderr, verb[0]).toMatch(/workspace folder not found/);
      expect(h.stderr, verb[0]).not.toMatch(/no index/);
      const j = json([...verb, '--root', missing], schema, 2);
      expect(j.error.code, verb[0]).toBe('root_not_found');
      expect(j.hint, verb[0]).toBeTruthy();
    }
    expect(fs.existsSync(path.join(scratch, 'no'))).toBe(false);
  });

  it('takes the workspace of `hci index` as --root too, like every other verb, and refuses two different ones', () => {
    expect(json(['index', '--root', ws.root], indexAnswer, 0, scratch).status).toBe('ok');
    const same = run(['index', ws.root, '--root', ws.root, '-q'], scratch);
    expect(same.code, same.stderr).toBe(0);
    const two = json(['index', ws.root, '--root', scratch], failureAnswer, 2);
    expect(two.error.code).toBe('usage');
    expect(two.error.message).toMatch(/two workspace folders/);
    expect(fs.existsSync(path.join(scratch, '.hci')), 'the refused run indexes nothing').toBe(false);
  });

  it('refuses a file given as the root with a clear message, not ENOTDIR', () => {
    const file = path.join(ws.root, FILE);
    const r = run(['index', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is a file, not a folder/);
    expect(r.stderr).not.toMatch(/ENOTDIR|NotADirectory/);
    const j = json(['index', file], failureAnswer, 2);
    expect(j.error.code).toBe('root_not_found');
    expect(j.hint).toMatch(/folder/);
    expect(json(['status', '--root', file], statusReport, 2).error.code).toBe('root_not_found');
  });

  it('takes a relative outline or resolve path from the current folder, then from --root; the hint says so', () => {
    // From an unrelated folder: the path is the root's.
    const out = json(['outline', FILE, '--root', ws.root], outlineResponse, 0, scratch);
    expect(out.path).toBe(FILE);
    expect(out.symbols.length).toBeGreaterThan(0);
    const at = json(['resolve', `${FILE}:10`, '--root', ws.root], resolveResponse, 0, scratch);
    expect(at.locations[0].path).toBe(FILE);
    // From inside the workspace, a path relative to the current folder wins.
    const here = json(['outline', 'CatalogService.cs', '--root', ws.root], outlineResponse, 0, path.join(ws.root, path.dirname(FILE)));
    expect(here.path).toBe(FILE);
    // A path that is in neither place leaves the workspace: the hint names both readings.
    const outside = json(['outline', '../../elsewhere/x.cs', '--root', ws.root], outlineResponse, 2, scratch);
    expect(outside.error.code).toBe('path_outside_workspace');
    expect(outside.hint).toMatch(/current folder/);
    expect(outside.hint).toMatch(/root/);
    expect(outside.hint).not.toMatch(/^pass a path relative to the workspace root/);
  });

  it('reads an unquoted -path: (and -ext:, -file:, -lang:) in a search as part of the query, not as --path', () => {
    const unquoted = json(['search', 'CatalogService', '-path:tests/', '--root', ws.root, '-k', '50'], searchResponse, 0);
    expect(unquoted.hits.length).toBeGreaterThan(0);
    expect(unquoted.hits.every((h: { path: string }) => !h.path.startsWith('tests/'))).toBe(true);
    const plain = json(['search', 'CatalogService', '--root', ws.root, '-k', '50'], searchResponse, 0);
    expect(plain.hits.some((h: { path: string }) => h.path.startsWith('tests/'))).toBe(true);
    expect(unquoted.query).toBe('CatalogService -path:tests/');
    const ext = json(['search', 'MaxItemsPerOrder', '-ext:json', '--root', ws.root], searchResponse, 0);
    expect(ext.hits.every((h: { path: string }) => h.path.endsWith('.json'))).toBe(true);
    // After an explicit `--`, too.
    const dashed = cliJson(runtime, ws.root, ['search', '--json', '--root', ws.root, '--', 'catalog', '-path:tests/']);
    expect([dashed.code, dashed.json.query]).toEqual([0, 'catalog -path:tests/']);
  });

  it('takes the contract\'s name --limit for the number of hits, and -k / --k as before; two of them is a usage error', () => {
    const byLimit = json(['search', 'CatalogService', '--limit', '2', '--root', ws.root], searchResponse, 0);
    expect(byLimit.hits.length).toBe(2);
    expect(byLimit.next_cursor).toBeTruthy();
    const byK = json(['search', 'CatalogService', '--k', '2', '--root', ws.root], searchResponse, 0);
    expect(byK.hits.map((h: { hit_id: string }) => h.hit_id)).toEqual(byLimit.hits.map((h: { hit_id: string }) => h.hit_id));
    expect(json(['search', 'CatalogService', '-k', '3', '--root', ws.root], searchResponse, 0).hits.length).toBe(3);
    const both = json(['search', 'CatalogService', '--limit', '2', '--k', '3', '--root', ws.root], failureAnswer, 2);
    expect(both.error.code).toBe('usage');
    expect(run(['search', '--help']).stdout).toMatch(/-k, --limit <n>/);
  });

  it('prints usage errors as the failure JSON with --json (stdout only)', () => {
    const bad = json(['search', 'x', '-k', 'zero', '--root', ws.root], failureAnswer, 2);
    expect(bad.error.code).toBe('usage');
    expect(bad.error.message).toMatch(/positive integer/);
    expect(bad.hint).toMatch(/--help/);
    expect(json(['search', '--root', ws.root], failureAnswer, 2).error.message).toMatch(/missing required argument/);
    expect(json(['outline'], failureAnswer, 2).error.code).toBe('usage');
    // Without --json, still one line and a hint on stderr.
    const human = run(['search', 'x', '-k', 'zero']);
    expect(human.code).toBe(2);
    expect(human.stdout).toBe('');
    expect(human.stderr).toMatch(/positive integer/);
  });

  it('answers with the verb\'s own JSON shape when the workspace cannot be opened (bad settings)', () => {
    const settings = path.join(ws.root, '.hci', 'settings.toml');
    fs.writeFileSync(settings, 'max_files = -3\n');
    try {
      const s = json(['search', 'catalog', '--root', ws.root], searchResponse, 2);
      expect([s.status, s.error.code, s.hits]).toEqual(['error', 'invalid_settings', []]);
      expect(json(['status', '--root', ws.root], statusReport, 2).error.code).toBe('invalid_settings');
      expect(json(['explain', '1.abc', '--root', ws.root], explainResponse, 2).error.code).toBe('invalid_settings');
      expect(json(['outline', path.join(ws.root, FILE)], outlineResponse, 2).error.code).toBe('invalid_settings');
      expect(json(['resolve', 'A.B()', '--root', ws.root], resolveResponse, 2).error.code).toBe('invalid_settings');
      const human = run(['search', 'catalog', '--root', ws.root]);
      expect(human.code).toBe(2);
      expect(human.stderr).toMatch(/^hci: .*settings\.toml/m);
      expect(human.stderr).toMatch(/^hint: /m);
    } finally {
      fs.rmSync(settings);
    }
  });

  it('tells a hit id this index never had from one whose file was re-indexed', () => {
    const never = json(['explain', '999999.zzzzzz', '--root', ws.root], explainResponse, 2);
    expect(never.error.code).toBe('invalid_hit_id');
    expect(never.error.message).not.toMatch(/re-indexed/);
    expect(never.hint).toMatch(/search/);
  });
});

describe('a stale hit id (its file re-indexed) is still stale_hit', () => {
  const ws = copySample('hci-cli-stale-');
  afterAll(() => ws.cleanup());
  it('explains a removed chunk as stale, with the search-again hint', () => {
    ensureBuilt();
    expect(runHci('node', ws.root, ['index', ws.root, '-q']).code).toBe(0);
    const s = cliJson('node', ws.root, ['search', 'GetCatalogItemsAsync', '--root', ws.root, '--json']).json;
    const hit = s.hits.find((h: { path: string }) => h.path === FILE);
    expect(hit).toBeTruthy();
    fs.appendFileSync(path.join(ws.root, FILE), '\n// touched\n');
    expect(runHci('node', ws.root, ['index', ws.root, '-q']).code).toBe(0);
    const r = cliJson('node', ws.root, ['explain', hit.hit_id, '--root', ws.root, '--json']);
    expect(r.code).toBe(5);
    expect(r.json.error.code).toBe('stale_hit');
    expect(r.json.error.message).toMatch(/re-indexed/);
  }, 60_000);
});

describe.each(CLI_RUNTIMES)('the %s CLI on a damaged page', (runtime: CliRuntimeName) => {
  const ws = copySample(`hci-cli-damaged-${runtime}-`);
  afterAll(() => ws.cleanup());

  it('prints no raw SQLite text to stderr: index_corrupt, with --json on stdout only', async () => {
    ensureBuilt();
    expect(runHci('node', ws.root, ['index', ws.root, '-q']).code).toBe(0);
    const check = (verbs: string[][]) => {
      for (const args of verbs) {
        const j = runHci(runtime, ws.root, [...args, '--json']);
        expect(j.stderr, `${args[0]} --json`).toBe('');
        expect(JSON.parse(j.stdout).error.code, args[0]).toBe('index_corrupt');
        expect(j.code).toBe(5);
        const h = runHci(runtime, ws.root, args);
        expect(h.stderr, args[0]).not.toMatch(/sqlite3_step|SQL =|sqlite3 result code/);
        for (const line of h.stderr.split('\n').filter(Boolean)) expect(line, args[0]).toMatch(/^(error|hint|hci): /);
      }
    };
    // The meta table: every command fails when it opens the index.
    await damageTables(ws.root, ['meta']);
    check([['search', 'catalog', '--root', ws.root], ['status', '--root', ws.root], ['explain', '1.abc', '--root', ws.root], ['resolve', 'A.B()', '--root', ws.root], ['index', ws.root]]);
    expect(runHci('node', ws.root, ['index', ws.root, '--full', '-q']).code).toBe(0);
    // The FTS postings: the search's MATCH meets the damage.
    await damageTables(ws.root, ['chunks_fts_data']);
    check([['search', 'catalog', '--root', ws.root]]);
    // A dozen CLI starts (Deno's start is the slow one), two of them index builds: legitimately slow on a
    // loaded machine — 60 s was overrun at load 30-50 with every step passing.
  }, 240_000);
});

// The progress display shows on a terminal only: `script` (util-linux) gives the CLI one.
const SCRIPT = ['/usr/bin/script', '/bin/script'].find((p) => fs.existsSync(p));
describe.skipIf(!SCRIPT).each(CLI_RUNTIMES)('the %s CLI progress display on a terminal', (runtime: CliRuntimeName) => {
  const ws = copySample(`hci-cli-progress-${runtime}-`);
  afterAll(() => ws.cleanup());

  it('shows the phase, files, elapsed time and an ETA', () => {
    ensureBuilt();
    const argv = runtime === 'node'
      ? [process.execPath, HCI_BIN, 'index', ws.root]
      : [denoBinary(), 'run', ...denoFlags(ws.root), DENO_CLI, 'index', ws.root];
    const quoted = argv.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    const r = spawnSync(SCRIPT!, ['-qec', quoted, '/dev/null'], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, timeout: 120_000 });
    expect(r.status, r.stdout).toBe(0);
    expect(r.stdout).toMatch(/scanning the workspace · \d+s elapsed/);
    expect(r.stdout).toMatch(/indexing .*\d+\/79 files · \d+ chunks · [\d.]+ MB · \d+s elapsed · ETA /);
    expect(r.stdout).toMatch(/indexed 79 files/);
  }, 120_000);
});

describe('formatProgress', () => {
  const p = (phase: 'scan' | 'index' | 'done', filesDone: number, filesTotal = 100) => ({ phase, filesDone, filesTotal, chunks: 10, bytes: 3 * 1048576 });
  it('gives the ETA from the rate of the index phase, once there is one', () => {
    const clock = { startedAt: 0, indexStartedAt: 2000 };
    expect(formatProgress(p('scan', 0, 0), clock, 1500)).toBe('scanning the workspace · 2s elapsed');
    expect(formatProgress(p('index', 0), clock, 2500)).toMatch(/0\/100 files · 10 chunks · 3\.0 MB · 3s elapsed · ETA …$/);
    expect(formatProgress(p('index', 25), clock, 12_000, '==')).toBe('indexing [==] 25/100 files · 10 chunks · 3.0 MB · 12s elapsed · ETA 30s');
    expect(formatProgress(p('index', 50), { startedAt: 0, indexStartedAt: 0 }, 130_000)).toMatch(/2m 10s elapsed · ETA 2m 10s$/);
    expect(formatProgress(p('done', 100), clock, 14_000)).toBe('finishing · 100/100 files · 10 chunks · 14s elapsed');
  });
});

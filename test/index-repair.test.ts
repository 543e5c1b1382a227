// `index --full` repairs whatever it can and names what it cannot: garbage over any page of the
// index file (the pointer-map page 2 included, which no query of a pass reads) ends, after
// `hci index --full`, in a file Debian's sqlite3 finds sound; a directory, FIFO or symbolic link
// where the index file (or its journal or lock) should be gives `index_path_blocked` with a hint
// naming the path — from index, --full and search, under Node and under Deno — never `internal`.
// @lane cli
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runCli, sqliteText, dbOf } from './helpers/hci-process.ts';

import { runDenoCli, REPO } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';

const deno = denoBinary();
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const SAMPLE = path.join(REPO, 'test/sample-workspace');
const temp: string[] = [];
const fresh = () => {
  const d = copyWorkspace(SAMPLE, 'hci-repair-');
  temp.push(d);
  return d;
};
const json = (stdout: string) => JSON.parse(stdout) as { status: string; error?: { code: string; message: string }; hint?: string; hits?: unknown[] };

let built = '';
beforeAll(async () => {
  ensureBuilt();
  built = fresh();
  const r = await runCli(['index', built, '--quiet']);
  expect(r.code, r.stderr).toBe(0);
}, 60_000);

afterAll(() => {
  for (const d of temp) fs.rmSync(d, { recursive: true, force: true });
});

describe('index --full over a damaged file', () => {
  it('ends with a sound file whichever page the garbage covers', async () => {
    const pageSize = Number(sqliteText(dbOf(built), 'PRAGMA page_size'));
    const pages = Number(sqliteText(dbOf(built), 'PRAGMA page_count'));
    // Page 2 is the pointer map (auto_vacuum); then the schema's first tables, a middle and the last page.
    for (const page of [2, 3, 4, 6, Math.ceil(pages / 2), pages]) {
      const root = fresh();
      fs.mkdirSync(path.join(root, '.hci'));
      fs.copyFileSync(dbOf(built), dbOf(root));
      const fd = fs.openSync(dbOf(root), 'r+');
      fs.writeSync(fd, Buffer.alloc(pageSize, 0xa5), 0, pageSize, (page - 1) * pageSize);
      fs.closeSync(fd);
      const r = await runCli(['index', root, '--full', '--json']);
      expect(r.code, `page ${page}: ${r.stdout}${r.stderr}`).toBe(0);
      expect(sqliteText(dbOf(root), 'PRAGMA integrity_check'), `page ${page}`).toBe('ok');
      const s = await runCli(['search', 'CatalogService', '--root', root, '--json']);
      expect(json(s.stdout).status, `page ${page}`).toBe('ok');
    }
  }, 180_000);
});

type Obstacle = { name: string; at: 'index' | 'journal' | 'lock'; make(p: string): void; kind: RegExp };
const OUTSIDE = path.join(os.tmpdir(), `hci-repair-outside-${process.pid}`);
const OBSTACLES: Obstacle[] = [
  { name: 'a directory', at: 'index', make: (p) => fs.mkdirSync(p), kind: /is a directory/ },
  { name: 'a FIFO', at: 'index', make: (p) => execFileSync('mkfifo', [p]), kind: /is a FIFO/ },
  { name: 'a symbolic link to a missing file outside', at: 'index', make: (p) => fs.symlinkSync(OUTSIDE, p), kind: /is a symbolic link/ },
  { name: 'a symbolic link to a directory', at: 'index', make: (p) => fs.symlinkSync(os.tmpdir(), p), kind: /is a symbolic link/ },
  { name: 'a directory at the journal', at: 'journal', make: (p) => fs.mkdirSync(p), kind: /is a directory/ },
  { name: 'a directory at the lock', at: 'lock', make: (p) => fs.mkdirSync(p), kind: /is a directory/ },
];
const obstaclePath = (root: string, at: Obstacle['at']) => dbOf(root) + (at === 'journal' ? '-journal' : at === 'lock' ? '.lock' : '');

describe('something other than a file at the index path', () => {
  for (const o of OBSTACLES) {
    it(`${o.name}: index, --full and search say what blocks them; removing it fixes everything`, async () => {
      const root = fresh();
      fs.mkdirSync(path.join(root, '.hci'));
      const blocked = obstaclePath(root, o.at);
      o.make(blocked);
      for (const args of [['index', root, '--json'], ['index', root, '--full', '--json'], ['search', 'CatalogService', '--root', root, '--json'], ['status', '--root', root, '--json']]) {
        const r = await runCli(args);
        expect(r.code, `${args.join(' ')}: ${r.stdout}${r.stderr}`).toBe(5);
        const out = json(r.stdout);
        expect(out.error?.code, args.join(' ')).toBe('index_path_blocked');
        expect(out.error?.message).toContain(blocked);
        expect(out.error?.message).toMatch(o.kind);
        expect(out.hint).toContain(blocked);
      }
      expect(fs.existsSync(OUTSIDE), 'nothing is written through the link').toBe(false);
      fs.rmSync(blocked, { recursive: true, force: true });
      const r = await runCli(['index', root, '--json']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(sqliteText(dbOf(root), 'PRAGMA integrity_check')).toBe('ok');
    }, 60_000);
  }

  it.skipIf(!deno)(titled('under Deno too', { Deno: deno }), async () => {
    for (const o of [OBSTACLES[0], OBSTACLES[1], OBSTACLES[2]]) {
      const root = fresh();
      fs.mkdirSync(path.join(root, '.hci'));
      const blocked = obstaclePath(root, o.at);
      o.make(blocked);
      for (const args of [['index', root, '--full', '--json'], ['search', 'CatalogService', '--root', root, '--json']]) {
        const r = await runDenoCli(deno, root, args);
        expect(r.code, `${o.name} ${args[0]}: ${r.stdout}${r.stderr}`).toBe(5);
        expect(r.json.error.code).toBe('index_path_blocked');
        expect(r.json.error.message).toMatch(o.kind);
        expect(r.json.hint).toContain(blocked);
      }
      expect(fs.existsSync(OUTSIDE)).toBe(false);
    }
  }, 120_000);
});

// The `hci` CLI as a real child process (the built bin/hci.js): commands, --json contract output,
// human output, exit codes and one-line errors with hints.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';
import { FORMAT_VERSION } from '../core/index/schema.ts';

const bin = path.resolve(import.meta.dirname, '../bin/hci.js');

function hci(args: string[], cwd?: string) {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

let ws: TmpWorkspace;
beforeAll(async () => {
  ws = await createTmpWorkspace({
    'src/OrderService.cs': 'namespace Shop;\npublic class OrderService\n{\n    public void PlaceOrder(int id) { }\n}\n',
    'src/Pages/Orders.razor': '@page "/orders"\n@inject OrderService Orders\n<h1>Orders</h1>\n',
    'README.md': '# Shop\n\nPlace an order through the OrderService.\n',
  });
});
afterAll(async () => ws?.cleanup());

describe('hci CLI', () => {
  it('prints help for every command and exits 0', () => {
    for (const args of [['--help'], ['index', '--help'], ['search', '--help'], ['status', '--help'], ['explain', '--help'], ['demo', '--help']]) {
      const r = hci(args);
      expect(r.code, args.join(' ')).toBe(0);
      expect(r.out).toMatch(/Usage: hci/);
    }
    expect(hci(['--help']).out).toMatch(/Exit codes/);
  });

  it('refuses unknown commands and bad options with exit 2', () => {
    expect(hci(['frobnicate']).code).toBe(2);
    const bad = hci(['search', 'x', '-k', 'zero', '--root', ws.root]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/positive integer/);
  });

  it('says there is no index (exit 3) before the first run', () => {
    const r = hci(['search', 'OrderService', '--root', ws.root]);
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/no index/);
    expect(r.err).toMatch(/hint: run `hci index`/);
    const j = hci(['status', '--json', '--root', ws.root]);
    expect(j.code).toBe(3);
    expect(JSON.parse(j.out).status).toBe('no_index');
  });

  it('indexes, then searches with human and JSON output', () => {
    const idx = hci(['index', ws.root]);
    expect(idx.code).toBe(0);
    expect(idx.out).toMatch(/indexed 3 files/);
    expect(idx.err).toBe('');

    const human = hci(['search', 'PlaceOrder', '--root', ws.root]);
    expect(human.code).toBe(0);
    expect(human.out).toMatch(/^ 1 {2}src\/OrderService\.cs:1-5 {2}csharp/m);
    expect(human.out).toMatch(/4: public void PlaceOrder\(int id\)/);
    expect(human.out).toMatch(/1 hit \(ok, match all\)/);

    const json = hci(['search', 'order', 'service', '--json', '-k', '2', '--root', ws.root]);
    expect(json.code).toBe(0);
    const r = JSON.parse(json.out);
    expect(r).toMatchObject({ contract_version: 2, status: 'ok', query: 'order service', mode: 'keyword' });
    expect(r.hits).toHaveLength(2);
    expect(Object.keys(r.hits[0])).toEqual(expect.arrayContaining(['hit_id', 'rank', 'path', 'start_line', 'end_line', 'hit_kind', 'score', 'fts_score', 'lang', 'snippet']));
    expect(r.index).toMatchObject({ files: 3, build_state: 'complete' });
    expect(r.next_cursor).toBeDefined();

    const page2 = JSON.parse(hci(['search', 'order', 'service', '--json', '-k', '2', '--cursor', r.next_cursor, '--root', ws.root]).out);
    expect(page2.hits[0].rank).toBe(3);

    const filtered = JSON.parse(hci(['search', 'orders', '--ext', 'razor', '--json', '--root', ws.root]).out);
    expect(filtered.hits.map((h: { path: string }) => h.path)).toEqual(['src/Pages/Orders.razor']);
  });

  it('finds the nearest indexed folder when --root is omitted', () => {
    const r = hci(['search', 'PlaceOrder', '--json'], path.join(ws.root, 'src', 'Pages'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).hits[0].path).toBe('src/OrderService.cs');
  });

  it('exits 1 with a hint when nothing matches', () => {
    const r = hci(['search', 'zzzNothingLikeThis', '--root', ws.root]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/0 hits \(empty/);
    expect(r.out).toMatch(/hint: .*not proof of absence/);
  });

  it('explains a hit from an earlier search process', () => {
    const r = JSON.parse(hci(['search', 'PlaceOrder', '--json', '--root', ws.root]).out);
    const e = hci(['explain', r.hits[0].hit_id, '--root', ws.root]);
    expect(e.code).toBe(0);
    expect(e.out).toMatch(/src\/OrderService\.cs:1-5/);
    expect(e.out).toMatch(/query {5}PlaceOrder {2}\(match all, rank 1\)/);
    expect(e.out).toMatch(/placeorder in .*body/);
    expect(e.out).toMatch(/4 {2}    public void PlaceOrder/);
    const j = JSON.parse(hci(['explain', r.hits[0].hit_id, '--json', '--root', ws.root]).out);
    expect(j.explanation.matched_terms[0]).toMatchObject({ term: 'placeorder' });
    const bad = hci(['explain', 'not-an-id', '--root', ws.root]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/not a hit id/);
  });

  it('reports status with freshness, languages and skips', () => {
    const s = hci(['status', '--root', ws.root]);
    expect(s.code).toBe(0);
    expect(s.out).toMatch(/state {6}complete, generation \d+/);
    expect(s.out).toMatch(/3 files/);
    expect(s.out).toMatch(/pending {4}0 added, 0 modified, 0 deleted/);
    const j = JSON.parse(hci(['status', '--json', '--root', ws.root]).out);
    expect(j).toMatchObject({ status: 'ok', format_version: FORMAT_VERSION, files_by_lang: { csharp: 1, razor: 1, markdown: 1 } });
    const sourceBytes = ['src/OrderService.cs', 'src/Pages/Orders.razor', 'README.md'].reduce((n, p) => n + fs.statSync(path.join(ws.root, p)).size, 0);
    expect(j.size.source_bytes).toBe(sourceBytes);
    expect(j.size.index_bytes).toBe(fs.statSync(path.join(ws.root, '.hci', 'index.sqlite')).size);
    expect(s.out).toMatch(/size {7}[\d.]+ MB \([\d.]+x the [\d.]+ MB of indexed source\)/);
  });

  it('prints one clear line and a hint for invalid settings (exit 2)', async () => {
    const bad = await createTmpWorkspace({ 'a.cs': 'class A {}', '.hci/settings.toml': 'max_files = -3\n' });
    try {
      const r = hci(['index', bad.root]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^hci: \.hci\/settings\.toml is invalid: max_files/);
      expect(r.err).toMatch(/hint: known keys/);
    } finally {
      await bad.cleanup();
    }
  });
});

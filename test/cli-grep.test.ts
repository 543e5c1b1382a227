// The command line where terminals already are (issue 38 items 2-3), the real CLI in child processes
// over an indexed copy of the sample workspace, checked against ripgrep itself: --vimgrep lines
// (path:line:column:text) and -l files equal `rg --vimgrep` / `rg -l` for literals and regexes under
// smart case (and under -i / -s forcing either way), -C N prints grep's context lines, -q prints
// nothing and -q / --no-footer keep the exit code; keyword hits in vimgrep shape point at the word; a
// query that starts with "-" gets a hint (and works after "--"); every failure says `hci:`; and
// `hci resolve <Name>` lists every definition of a bare name.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import { copySample, ensureBuilt, HCI_BIN, REPO } from './helpers/mcp-harness.ts';

let ws: { root: string; cleanup(): void };
const hci = (...args: string[]) => {
  const r = spawnSync(process.execPath, [HCI_BIN, ...args], { cwd: REPO, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
};
const rg = (...args: string[]) => {
  // '.': with no path and stdin not a terminal, rg would search stdin.
  const r = spawnSync('rg', [...args, '.'], { cwd: ws.root, encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};
const lines = (s: string) => s.split('\n').filter(Boolean).map((l) => l.replace(/^\.\//, '')).sort();

beforeAll(() => {
  ensureBuilt();
  ws = copySample('hci-grep-');
  const r = hci('index', ws.root, '--quiet');
  expect(r.code, r.stderr).toBe(0);
}, 120_000);
afterAll(() => ws?.cleanup());

describe('grep-shaped output', () => {
  // C# only: the files both tools read the same way (hci leaves out what its rules skip; rg reads all).
  const CASES: Array<{ hci: string[]; rg: string[]; what: string }> = [
    { what: 'a regex with upper-case letters (smart case: case-sensitive)', hci: ['-E', 'Get[A-Z][a-z]+Async\\('], rg: ['-S', 'Get[A-Z][a-z]+Async\\('] },
    { what: 'a lower-case regex (smart case: ignores case)', hci: ['-E', 'get[a-z]+async\\('], rg: ['-S', 'get[a-z]+async\\('] },
    { what: 'a lower-case literal (ignores case)', hci: ['-F', 'catalogservice'], rg: ['-S', '-F', 'catalogservice'] },
    { what: 'a literal with upper case (case-sensitive)', hci: ['-F', 'CatalogService'], rg: ['-S', '-F', 'CatalogService'] },
    { what: '-i forces ignoring case', hci: ['-F', '-i', 'CATALOGSERVICE'], rg: ['-i', '-F', 'CATALOGSERVICE'] },
    { what: '-s forces case on a lower-case regex', hci: ['-E', '-s', 'catalog'], rg: ['-s', 'catalog'] },
    { what: 'whole words', hci: ['-F', '-w', 'Id'], rg: ['-S', '-w', '-F', 'Id'] },
  ];

  for (const c of CASES) {
    it(`--vimgrep and -l equal ripgrep's: ${c.what}`, () => {
      const v = hci('search', ...c.hci, '--vimgrep', '--ext', 'cs', '--root', ws.root);
      expect(v.stderr).toBe('');
      const expected = lines(rg(...c.rg, '--vimgrep', '-g', '*.cs'));
      expect(expected.length, 'the case finds something').toBeGreaterThan(0);
      expect(lines(v.stdout)).toEqual(expected);
      expect(v.code).toBe(0);
      const l = hci('search', ...c.hci, '-l', '--ext', 'cs', '--root', ws.root);
      expect(lines(l.stdout)).toEqual(lines(rg(...c.rg, '-l', '-g', '*.cs')));
    });
  }

  it('-C N prints grep\'s context lines: path:line:text for a match, path-line-text around it, -- between groups', () => {
    const r = hci('search', '-F', 'GetCategoriesAsync', '-C', '1', '--ext', 'cs', '--root', ws.root);
    expect(r.code).toBe(0);
    const got = r.stdout.split('\n').filter(Boolean);
    const want = rg('-S', '-F', 'GetCategoriesAsync', '-n', '-H', '--no-heading', '-C', '1', '-g', '*.cs').split('\n').filter(Boolean).map((l) => l.replace(/^\.\//, ''));
    expect(got.filter((l) => l !== '--').sort()).toEqual(want.filter((l) => l !== '--').sort());
    expect(got.filter((l) => l === '--').length).toBe(want.filter((l) => l === '--').length);
    expect(got.some((l) => /^[^:]+-\d+-/.test(l))).toBe(true);
  });

  it('keyword hits in vimgrep shape point at the word; -q prints nothing and keeps the exit code; --no-footer drops the summary', () => {
    const v = hci('search', 'GetCatalogItemsAsync', '--vimgrep', '-k', '3', '--root', ws.root);
    expect(v.code).toBe(0);
    const out = v.stdout.split('\n').filter(Boolean);
    expect(out.length).toBeGreaterThan(0);
    for (const l of out) {
      const m = /^([^:]+):(\d+):(\d+):(.*)$/.exec(l)!;
      expect(m, l).not.toBeNull();
      const text = fs.readFileSync(`${ws.root}/${m[1]}`, 'utf8').split('\n')[Number(m[2]) - 1];
      expect(m[4]).toBe(text);
      expect(text.slice(Number(m[3]) - 1).toLowerCase(), l).toMatch(/^getcatalogitemsasync/);
    }
    expect(hci('search', 'GetCatalogItemsAsync', '-q', '--root', ws.root)).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(hci('search', '-F', 'no such text anywhere 42', '-q', '--root', ws.root)).toMatchObject({ code: 1, stdout: '', stderr: '' });
    const plain = hci('search', 'GetCatalogItemsAsync', '-k', '2', '--root', ws.root);
    const bare = hci('search', 'GetCatalogItemsAsync', '-k', '2', '--no-footer', '--root', ws.root);
    expect(plain.stdout).toMatch(/\n2 hits \(ok/);
    expect(bare.stdout).not.toMatch(/hits? \(ok/);
    expect(plain.stdout.startsWith(bare.stdout.trimEnd())).toBe(true);
  });

  it('a query that starts with "-" gets a hint and works after "--"; failures say hci:', () => {
    const bad = hci('search', '--brand-accent', '--root', ws.root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^hci: unknown option '--brand-accent'\nhint: a query that starts with "-" goes after "--": hci search \[options\] -- --brand-accent/);
    const good = hci('search', '-F', '--root', ws.root, '--', '--brand-accent');
    expect(good.code, good.stderr).toBe(0);
    expect(good.stdout).toContain('MainLayout.razor.css');
    const none = hci('search', 'anything', '--root', `${ws.root}/docs`);
    expect(none.code).toBe(3);
    expect(none.stderr).toMatch(/^hci: no index at /);
    expect(hci('search', '-s', '-i', 'x', '--root', ws.root).stderr).toMatch(/^hci: option '-i, --ignore-case' cannot be used with option '-s, --case-sensitive'/);
  });
});

describe('hci resolve <Name>', () => {
  it('a bare name lists every definition with kind and location, like MCP\'s resolve {name}', () => {
    const r = hci('resolve', 'CatalogService', '--root', ws.root, '--json');
    expect(r.code, r.stderr).toBe(0);
    const locations = JSON.parse(r.stdout).locations as Array<{ path: string; kind: string; name: string; start_line: number }>;
    expect(locations).toContainEqual(expect.objectContaining({ path: 'src/Contoso.Shop.Application/Catalog/CatalogService.cs', kind: 'class', name: 'CatalogService' }));
    const human = hci('resolve', 'GetCategoriesAsync', '--root', ws.root);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^src\/Contoso\.Shop\.Application\/Catalog\/CatalogService\.cs:\d+-\d+ {2}method GetCategoriesAsync/m);
    expect(human.stdout).toMatch(/ICatalogService\.cs:\d+-\d+ {2}method GetCategoriesAsync/);
    const missing = hci('resolve', 'NoSuchTypeAnywhere', '--root', ws.root);
    expect(missing.code).toBe(1);
    expect(missing.stdout).toContain('no outline defines a symbol named NoSuchTypeAnywhere');
  });

  it('hci def is resolve by another name: the same answer, the same help and usage errors', () => {
    const resolve = hci('resolve', 'CatalogService', '--root', ws.root, '--json');
    const def = hci('def', 'CatalogService', '--root', ws.root, '--json');
    expect(def.code, def.stderr).toBe(0);
    expect(JSON.parse(def.stdout).locations).toEqual(JSON.parse(resolve.stdout).locations);
    expect(hci('--help').stdout).toMatch(/^ {2}resolve\|def \[options\] <target>/m);
    const bad = hci('def', 'X', '--nope', '--root', ws.root);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^hint: run `hci resolve --help` for usage$/m);
  });
});

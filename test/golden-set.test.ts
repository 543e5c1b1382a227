// The broad tuning set's tooling on real git repositories in temp folders: materializing a pinned tree
// from a bare mirror (bench/lib/corpora.ts), checking query rows against the pinned commit and mining
// commit candidates (bench/lib/golden-set.ts, bench/lib/mine.ts); and the committed set's shape.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { materialize, readManifest, readMarker, type CorpusEntry } from '../bench/lib/corpora.ts';
import { countSet, pinnedErrors, readBroadSet, shapeErrors, type BroadQuery } from '../bench/lib/golden-set.ts';
import { cleanQuery, cleanSubject, mineCommits } from '../bench/lib/mine.ts';

const repoRoot = path.resolve(import.meta.dirname, '..');
const GIT_ENV = { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_CONFIG_NOSYSTEM: '1', HOME: os.tmpdir() };

let tmp: string;
let work: string;
let mirrorRoot: string;
let gitDir: string;
const commits: Record<string, string> = {};

function git(args: string[], cwd = work): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
}
function write(rel: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(work, rel)), { recursive: true });
  fs.writeFileSync(path.join(work, rel), text);
}
function commit(name: string, message: string): void {
  git(['add', '-A']);
  git(['commit', '-q', '-m', message]);
  commits[name] = git(['rev-parse', 'HEAD']);
}

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-golden-'));
  work = path.join(tmp, 'work');
  fs.mkdirSync(work);
  git(['init', '-q', '-b', 'main']);
  write('src/Grid.cs', 'namespace Demo;\n\npublic class Grid\n{\n    public int Compare(string a, string b) => string.CompareOrdinal(a, b);\n}\n');
  write('src/Old.cs', 'class Old {}\n');
  write('tests/GridTests.cs', 'class GridTests {}\n');
  write('README.md', '# Demo\n');
  commit('first', 'Initial commit');
  write('src/Grid.cs', 'namespace Demo;\n\npublic class Grid\n{\n    public int Compare(string a, string b) => NaturalOrder.Compare(a, b); // digits compare as numbers\n}\n');
  write('tests/GridTests.cs', 'class GridTests { void Sorts() {} }\n');
  commit('fix', 'fix(Grid): make the grid sort numbers as numbers (#12)');
  write('Directory.Build.props', '<Project><PropertyGroup><Version>2.0</Version></PropertyGroup></Project>\n');
  commit('bump', 'Bump version to 2.0 for the next release');
  fs.rmSync(path.join(work, 'src/Old.cs'));
  write('README.md', '# Demo\n\nGrids that sort numbers naturally.\n');
  commit('remove', 'Remove the old class that nobody uses any more');
  write('src/Grid.cs', fs.readFileSync(path.join(work, 'src/Grid.cs'), 'utf8') + '// stable order\n');
  commit('stable', 'fix: keep the grid order stable\n\nfix: keep the grid order stable');
  write('src/run.sh', '#!/bin/sh\necho hi\n');
  fs.chmodSync(path.join(work, 'src/run.sh'), 0o755);
  fs.symlinkSync('Grid.cs', path.join(work, 'src/GridLink.cs'));
  commit('pin', 'Add a run script and a link to the grid source');
  // The mirror layout the tools expect: <root>/<owner>+<name>/repo, a bare repository.
  mirrorRoot = path.join(tmp, 'mirrors');
  gitDir = path.join(mirrorRoot, 'acme+demo', 'repo');
  execFileSync('git', ['clone', '-q', '--bare', work, gitDir], { env: GIT_ENV });
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

const entry = (commit: string): CorpusEntry => ({ name: 'Demo', github: 'acme/demo', gitdir: 'acme+demo/repo', commit });

describe('corpus manifests', () => {
  it('reads an object keyed by name, fills the mirror folder and rejects a short commit id', () => {
    const f = path.join(tmp, 'm.json');
    fs.writeFileSync(f, JSON.stringify({ _about: 'comment', Demo: { github: 'acme/demo', commit: 'a'.repeat(40), kind: 'lib' } }));
    const [e] = readManifest(f);
    expect(e).toMatchObject({ name: 'Demo', github: 'acme/demo', gitdir: 'acme+demo/repo', kind: 'lib' });
    fs.writeFileSync(f, JSON.stringify([{ name: 'X', github: 'a/b', commit: 'abc123' }]));
    expect(() => readManifest(f)).toThrow(/40-hex/);
  });

  it('the committed broad set: every entry pinned with branch, licence and kind; every query file well-formed, with type-name rows', () => {
    const dir = path.join(repoRoot, 'bench', 'golden');
    const entries = readManifest(path.join(dir, 'repos.json'));
    expect(entries.length).toBeGreaterThanOrEqual(8);
    expect(new Set(entries.map((e) => e.github.toLowerCase())).size).toBe(entries.length);
    const sets = entries.filter((e) => fs.existsSync(path.join(dir, `${e.name}.jsonl`)));
    expect(sets.map((e) => e.name)).toEqual(entries.map((e) => e.name)); // every pinned repository has its queries
    for (const e of entries) expect([e.branch, e.licence, e.kind].every((v) => typeof v === 'string' && v.length > 0), e.name).toBe(true);
    for (const e of sets) {
      const rows = readBroadSet(path.join(dir, `${e.name}.jsonl`));
      expect(shapeErrors(rows, e.name)).toEqual([]);
      const c = countSet(rows);
      expect(c.total, e.name).toBeGreaterThanOrEqual(30);
      for (const k of ['commit', 'architecture', 'behaviour', 'symbol', 'paraphrase']) expect(c.byKind[k] ?? 0, `${e.name} ${k}`).toBeGreaterThan(0);
      expect(c.typeNames, e.name).toBeGreaterThanOrEqual(5);
    }
  });
});

describe('materialize', () => {
  it('writes the pinned tree (modes and links kept) with a marker, keeps it at the same pin and rewrites it at another', async () => {
    const out = path.join(tmp, 'corpora-a');
    const m = await materialize(entry(commits.pin), mirrorRoot, out);
    expect(m).toMatchObject({ skipped: false, commit: commits.pin, missing: [] });
    const dest = path.join(out, 'Demo');
    expect(fs.readFileSync(path.join(dest, 'src/Grid.cs'), 'utf8')).toContain('NaturalOrder.Compare');
    expect(fs.existsSync(path.join(dest, 'src/Old.cs'))).toBe(false);
    expect(fs.statSync(path.join(dest, 'src/run.sh')).mode & 0o111).not.toBe(0);
    expect(fs.readlinkSync(path.join(dest, 'src/GridLink.cs'))).toBe('Grid.cs');
    expect(fs.existsSync(path.join(dest, '.git'))).toBe(false);
    expect(readMarker(out, 'Demo')?.files).toBe(m.files);
    expect((await materialize(entry(commits.pin), mirrorRoot, out)).skipped).toBe(true);
    const again = await materialize(entry(commits.first), mirrorRoot, out);
    expect(again.skipped).toBe(false);
    expect(fs.readFileSync(path.join(dest, 'src/Grid.cs'), 'utf8')).toContain('CompareOrdinal');
    expect(fs.existsSync(path.join(dest, 'src/Old.cs'))).toBe(true);
    expect(fs.readdirSync(out).filter((n) => n.includes('.tmp-'))).toEqual([]);
  });

  it('lists the blobs a mirror lacks instead of failing, and refuses a commit the mirror does not have', async () => {
    const lacking = path.join(tmp, 'mirrors-lacking');
    fs.cpSync(mirrorRoot, lacking, { recursive: true });
    const gd = path.join(lacking, 'acme+demo', 'repo');
    const blob = execFileSync('git', ['--git-dir', gd, 'rev-parse', `${commits.pin}:README.md`], { encoding: 'utf8' }).trim();
    // A fresh bare clone keeps its objects in a pack: unpack them loose, then drop README's blob.
    for (const p of fs.readdirSync(path.join(gd, 'objects', 'pack')).filter((n) => n.endsWith('.pack'))) {
      const pack = path.join(gd, 'objects', 'pack', p);
      const data = fs.readFileSync(pack);
      for (const n of fs.readdirSync(path.join(gd, 'objects', 'pack')).filter((x) => x.startsWith(p.slice(0, -5)))) fs.rmSync(path.join(gd, 'objects', 'pack', n));
      execFileSync('git', ['--git-dir', gd, 'unpack-objects', '-q'], { input: data });
    }
    fs.rmSync(path.join(gd, 'objects', blob.slice(0, 2), blob.slice(2)));
    const out = path.join(tmp, 'corpora-b');
    const m = await materialize(entry(commits.pin), lacking, out);
    expect(m.missing).toEqual(['README.md']);
    expect(fs.existsSync(path.join(out, 'Demo', 'src/Grid.cs'))).toBe(true);
    await expect(materialize(entry('0'.repeat(40)), mirrorRoot, out, { force: true })).rejects.toThrow(/not in/);
  });
});

describe('checking rows against the pinned commit', () => {
  const base = (over: Partial<BroadQuery>): BroadQuery => ({ id: 'Demo-x', query: 'q', relevant: ['src/Grid.cs'], kind: 'behaviour', evidence: { 'src/Grid.cs': 'NaturalOrder.Compare' }, ...over });

  it('passes true evidence, declarations and source commits; names every false one', () => {
    const good: BroadQuery[] = [
      base({ id: 'Demo-b-01' }),
      base({ id: 'Demo-s-01', query: 'Grid', kind: 'symbol', evidence: { 'src/Grid.cs': 'public class Grid' }, declaration: { path: 'src/Grid.cs', line: 3, symbol: 'Grid', of: 'type', text: 'public class Grid' } }),
      { id: 'Demo-c-01', query: 'make the grid sort numbers', relevant: ['src/Grid.cs'], kind: 'commit', source_commit: commits.fix },
    ];
    expect(shapeErrors(good, 'Demo')).toEqual([]);
    expect(pinnedErrors(good, entry(commits.pin), gitDir)).toEqual([]);
    const bad: BroadQuery[] = [
      base({ id: 'Demo-b-01', evidence: { 'src/Grid.cs': 'CompareOrdinal' } }),
      base({ id: 'Demo-b-02', query: 'q2', relevant: ['src/Old.cs'], evidence: { 'src/Old.cs': 'class Old' } }),
      base({ id: 'Demo-s-01', query: 'Grid', kind: 'symbol', evidence: { 'src/Grid.cs': 'Grid' }, declaration: { path: 'src/Grid.cs', line: 4, symbol: 'Grid', of: 'type', text: 'public class Grid' } }),
      { id: 'Demo-c-01', query: 'q3', relevant: ['README.md'], kind: 'commit', source_commit: commits.fix },
    ];
    const errs = pinnedErrors(bad, entry(commits.pin), gitDir).join('\n');
    expect(errs).toMatch(/Demo-b-01: evidence "CompareOrdinal" is not in src\/Grid.cs/);
    expect(errs).toMatch(/Demo-b-02: src\/Old.cs is not in the tree/);
    expect(errs).toMatch(/Demo-s-01: line 4 of src\/Grid.cs does not hold "public class Grid" \(line 3 does\)/);
    expect(errs).toMatch(/Demo-c-01: source commit \w+ did not change README.md/);
  });

  it('shape: missing evidence, a symbol row without its declaration, duplicates and bad kinds are errors', () => {
    const errs = shapeErrors([
      base({ id: 'Demo-b-01', evidence: {} }),
      base({ id: 'Demo-s-01', query: 'Grid', kind: 'symbol' }),
      base({ id: 'Demo-s-01', query: 'q3' }),
      base({ id: 'Other-1', query: 'q4', kind: 'vibes' as never }),
      base({ id: 'Demo-c-09', query: 'q5', kind: 'commit', evidence: undefined }),
    ], 'Demo').join('\n');
    expect(errs).toMatch(/Demo-b-01\): no evidence for src\/Grid.cs/);
    expect(errs).toMatch(/needs its declaration/);
    expect(errs).toMatch(/duplicate id/);
    expect(errs).toMatch(/must start with "Demo-"/);
    expect(errs).toMatch(/kind "vibes"/);
    expect(errs).toMatch(/needs source_commit/);
  });
});

describe('commit mining', () => {
  it('keeps a descriptive commit with its non-test files, cleaned; drops bumps and deletions', () => {
    const c = mineCommits(gitDir, commits.pin, 'Demo');
    const byCommit = new Map(c.map((x) => [x.source_commit, x]));
    const fix = byCommit.get(commits.fix);
    expect(fix).toMatchObject({ query: 'Grid: make the grid sort numbers as numbers', relevant: ['src/Grid.cs'], kind: 'commit', survival: 1 });
    expect(byCommit.get(commits.stable)?.query).toBe('keep the grid order stable'); // a body repeating the subject is not appended
    expect(byCommit.has(commits.bump)).toBe(false);
    expect(byCommit.has(commits.remove)).toBe(false);
  });

  it('cleans subjects: conventional prefixes, gitmoji, issue numbers, a paragraph cut to its first sentence', () => {
    expect(cleanSubject('feat(DataGrid)!: add grouping (#123)')).toBe('DataGrid: add grouping');
    expect(cleanSubject('🐛 Exclude the workflow from the template')).toBe('Exclude the workflow from the template');
    expect(cleanSubject(':sparkles: Add a pipeline option')).toBe('Add a pipeline option');
    expect(cleanQuery('Fix #577, the popup closes twice')).toBe('the popup closes twice');
    const long = `The tooltip no longer flickers when hovered twice. ${'More words about it follow here. '.repeat(10)}`;
    expect(cleanQuery(long)).toBe('The tooltip no longer flickers when hovered twice');
  });
});

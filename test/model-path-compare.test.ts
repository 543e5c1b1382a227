// @lane unit
// bench/model/path-compare.ts: settings-ab records of two models (real files in a temp folder, golden
// files named by `.done` files) → sets up / down against the base model's hybrid, dev figures, and
// the identifier queries that lost rank 1 against keyword (kinds read from the golden file).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../bench/model/path-compare.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-path-compare-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Q = [string, number, number, number];
const row = (set: string, repo: string, engine: string, scores: Q[]) => ({
  set, repo, engine, scores, byKind: {},
  r5: scores.reduce((s, q) => s + q[2], 0) / scores.length, mrr: scores.reduce((s, q) => s + q[3], 0) / scores.length,
});

describe('path-compare', () => {
  it('counts sets up / down against the base hybrid and finds an identifier query that lost rank 1', async () => {
    const golden = path.join(dir, 'A.jsonl');
    fs.writeFileSync(golden, [
      { id: 'a1', query: 'FooBar', relevant: ['a.cs'], kind: 'identifier' },
      { id: 'a2', query: 'where is foo saved', relevant: ['b.cs'], kind: 'paraphrase' },
    ].map((x) => JSON.stringify(x)).join('\n'));
    fs.writeFileSync(path.join(dir, 'A.done'), JSON.stringify({ golden, set: 'dev' }));
    const base = { rows: [
      row('dev', 'A', 'keyword', [['a1', 1, 1, 1], ['a2', 0, 0, 0]]),
      row('dev', 'A', 'semantic', [['a1', 0, 1, 0.5], ['a2', 0, 0, 0]]),
      row('dev', 'A', 'hybrid', [['a1', 1, 1, 1], ['a2', 0, 0, 0.1]]),
    ] };
    // The variant gains the paraphrase but loses the identifier's rank 1.
    const variant = { rows: [
      row('dev', 'A', 'semantic', [['a1', 0, 1, 0.5], ['a2', 1, 1, 1]]),
      row('dev', 'A', 'hybrid', [['a1', 0, 1, 0.5], ['a2', 1, 1, 1]]),
    ] };
    fs.writeFileSync(path.join(dir, 'base.json'), JSON.stringify(base));
    fs.writeFileSync(path.join(dir, 'v.json'), JSON.stringify(variant));
    const md = path.join(dir, 'out.md');
    expect(await main(['--roots', dir, '--base', `base=${path.join(dir, 'base.json')}`, '--variant', `v=${path.join(dir, 'v.json')}`, '--md', md])).toBe(0);
    const text = fs.readFileSync(md, 'utf8');
    const line = text.split('\n').find((l) => l.startsWith('| v '))!;
    const cells = line.split('|').map((c) => c.trim());
    expect(cells[2]).toBe('1 / 0'); // MRR: A up
    expect(cells[8]).toBe('1.000 (1)'); // dev paraphrase R@5
    expect(cells[10]).toBe('1'); // identifier rank-1 lost vs keyword
    expect(text).toContain('vs keyword A: a1');
  });

  it('takes a settings variant of a record as a model (REC.json#V): its hybrid:V engine is that model\'s hybrid', async () => {
    const golden = path.join(dir, 'B.jsonl');
    fs.writeFileSync(golden, [
      { id: 'b1', query: 'BarBaz', relevant: ['a.cs'], kind: 'identifier' },
      { id: 'b2', query: 'where is bar kept', relevant: ['b.cs'], kind: 'paraphrase' },
    ].map((x) => JSON.stringify(x)).join('\n'));
    const roots = fs.mkdtempSync(path.join(dir, 'roots-'));
    fs.writeFileSync(path.join(roots, 'B.done'), JSON.stringify({ golden, set: 'broad' }));
    // One settings-ab record: keyword, the base hybrid and a variant `st` that gains the paraphrase.
    const rec = { rows: [
      row('broad', 'B', 'keyword', [['b1', 1, 1, 1], ['b2', 0, 0, 0]]),
      row('broad', 'B', 'hybrid', [['b1', 1, 1, 1], ['b2', 0, 0, 0.2]]),
      row('broad', 'B', 'hybrid:st', [['b1', 1, 1, 1], ['b2', 1, 1, 1]]),
    ] };
    const file = path.join(dir, 'rec.json');
    fs.writeFileSync(file, JSON.stringify(rec));
    const md = path.join(dir, 'out2.md');
    expect(await main(['--roots', roots, '--base', `base=${file}`, '--variant', `st=${file}#st`, '--md', md])).toBe(0);
    const text = fs.readFileSync(md, 'utf8');
    const cells = text.split('\n').find((l) => l.startsWith('| st '))!.split('|').map((c) => c.trim());
    expect(cells[2]).toBe('1 / 0'); // MRR up against the base hybrid
    expect(cells[4]).toBe('1 / 0'); // ahead of keyword on the one set
    expect(cells[5]).toBe('1.000 / 1.000'); // pooled
    expect(cells[10]).toBe('0');
    expect(text).toContain('rec.json#st');
  });
});

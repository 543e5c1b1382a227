// bench/question-misses.ts over a small real index: a question whose answer leads is no miss, a
// question in words the answer never uses is a vocabulary miss (a-vocab) with those words listed as
// absent, and a question answered below a docs page that holds the same words is a role miss (c-role).
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cs, RankingFixture } from './helpers/ranking-fixture.ts';
import { main } from '../bench/question-misses.ts';

const fixture = new RankingFixture();
let tmp: string;

beforeAll(async () => {
  const files: Record<string, string> = {
    'src/Retry/BackoffDelay.cs': cs('Retry', 'public static class BackoffDelay\n{\n    // Exponential backoff with jitter between retries.\n    public static int Next(int attempt) => 1 << attempt;\n}'),
    'src/Money/Money.cs': cs('Money', 'public readonly record struct Money(decimal Amount, string Currency)\n{\n    public Money Add(Money other) => other.Currency == Currency ? this with { Amount = Amount + other.Amount } : throw new System.InvalidOperationException();\n}'),
  };
  for (let i = 0; i < 6; i++) files[`docs/guide${i}.md`] = `# Guide ${i}\n\nHow the cache is warmed: the cache warms entries at startup, cache warming ${i}.\n`;
  files['src/Cache/Warmer.cs'] = cs('Cache', 'public sealed class Warmer\n{\n    // Loads entries before the first request.\n    public void Warm() { }\n}');
  await fixture.create(files);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-qmiss-'));
});

afterAll(() => {
  fixture.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('question-misses', () => {
  it('classes each question-like query by what beat its answer', async () => {
    const golden = path.join(tmp, 'golden.jsonl');
    fs.writeFileSync(golden, [
      { id: 'q-hit', query: 'how are retries delayed with exponential backoff', relevant: ['src/Retry/BackoffDelay.cs'], kind: 'behaviour' },
      { id: 'q-vocab', query: 'adding euros to dollars is refused', relevant: ['src/Money/Money.cs'], kind: 'paraphrase' },
      { id: 'q-role', query: 'how is the cache warmed at startup', relevant: ['src/Cache/Warmer.cs'], kind: 'architecture' },
      { id: 'q-symbol', query: 'BackoffDelay', relevant: ['src/Retry/BackoffDelay.cs'], kind: 'symbol' },
    ].map((g) => JSON.stringify(g)).join('\n'));
    const out = path.join(tmp, 'rows.json');
    const md = path.join(tmp, 'table.md');
    // (The report goes to stdout too.)
    const write = process.stdout.write;
    process.stdout.write = (() => true) as typeof process.stdout.write;
    try {
      expect(await main(['--set', `t=${golden}@${fixture.root}`, '--out', out, '--md', md])).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const rows = JSON.parse(fs.readFileSync(out, 'utf8')) as Array<{ id: string; rank: number | null; cls: string | null; absent: string[] }>;
    const by = new Map(rows.map((r) => [r.id, r]));
    // A symbol query is not question-like.
    expect([...by.keys()].sort()).toEqual(['q-hit', 'q-role', 'q-vocab']);
    expect(by.get('q-hit')).toMatchObject({ rank: 1, cls: null });
    expect(by.get('q-vocab')!.cls).toBe('a-vocab');
    expect(by.get('q-vocab')!.absent).toEqual(expect.arrayContaining(['euros', 'dollars', 'refused']));
    expect(by.get('q-role')!.cls).toBe('c-role');
    expect(by.get('q-role')!.rank).toBeGreaterThan(5);
    expect(fs.readFileSync(md, 'utf8')).toMatch(/\| t +\| +3 \| +2 \|/);
  });
});

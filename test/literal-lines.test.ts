// The line filter of the literal channel (core/search/literal/line-filter.ts): for random trigram
// queries (ANDs and ORs nested, from random regexes) over random ASCII texts, the lines it keeps are
// exactly the lines whose lowercase text satisfies the query — the narrowing that seeds an AND with
// its first trigram's lines and sweeps the rest forward must keep no more and no fewer than
// evaluating the query on each line.
// @lane unit
import { describe, it, expect } from 'vitest';
import { readRegex } from '../core/search/literal/regex-syntax.ts';
import { satisfies, trigramQuery } from '../core/search/literal/trigrams.ts';
import { candidateLines, filterText } from '../core/search/literal/line-filter.ts';
import { prng } from './helpers/generate-workspace.ts';

describe('candidateLines', () => {
  it('keeps exactly the lines that satisfy the trigram query', () => {
    const rand = prng(2718);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)];
    const words = ['get', 'async', 'order', 'GetOrder', 'Async(', 'cancel', 'update', 'create', 'command', 'Command', ' ', '_', '(', ')'];
    const atoms = ['Get', 'Async', '\\w+', '\\w*', '(Create|Update|Cancel)', 'Order', 'Command', '\\(', 'ord(er|ers)', '[ab]c', 'c?ancel', 'x'];
    let checked = 0;
    let narrowed = 0;
    for (let i = 0; i < 3000; i++) {
      const pattern = Array.from({ length: 1 + Math.floor(rand() * 4) }, () => pick(atoms)).join('');
      const q = trigramQuery(readRegex(pattern, true));
      const lines = Array.from({ length: Math.floor(rand() * 30) }, () => Array.from({ length: Math.floor(rand() * 8) }, () => pick(words)).join(''));
      const ft = filterText(lines.join('\n'))!;
      const kept = candidateLines(ft, q);
      const expected = lines.flatMap((l, k) => (satisfies(q, (tri) => l.toLowerCase().includes(tri)) ? [k + 1] : []));
      if (kept === null) {
        expect(q.op, pattern).toBe('all');
        continue;
      }
      expect(kept, `${pattern} over ${JSON.stringify(lines)}`).toEqual(expected);
      checked++;
      narrowed += lines.length - kept.length;
    }
    expect(checked).toBeGreaterThan(300);
    expect(narrowed).toBeGreaterThan(1000);
  });
});

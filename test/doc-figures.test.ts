// Every figure the README and docs/ quote comes from a committed result file that holds it (issue 39):
// a paragraph or table that reports a measurement — words such as p95, median, peak RSS, R@5, MRR,
// measured, or a ratio like 1.40x — cites a file under bench/results/, and every number it states is in
// one of the files it cites (the .md or its .json; a number may be rounded). Targets and bounds (after
// ≤, <, ≥, >), versions, dates, commits and single digits are not figures. The lab notebook,
// bench/README.md, keeps what was measured without a result file, labelled so.
// @lane unit
import { describe, expect, it } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';

const REPO = path.resolve(import.meta.dirname, '..');
const PAGES = ['README.md', ...fs.readdirSync(path.join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

/** Words that say a sentence reports a measurement. */
const MEASURED = /\b(?:p50|p95|p99|median|peak RSS|R@\d+|MRR|recall@?\d*|measured|took|faster|slower)\b|\b\d+(?:\.\d+)?x\b/i;

/** The page's prose, cut into blocks (paragraphs, list runs, tables) with their first line; fenced code left out. */
export function proseBlocks(md: string): { line: number; text: string }[] {
  const blocks: { line: number; text: string }[] = [];
  let cur: string[] = [];
  let start = 0;
  let fenced = false;
  const flush = () => {
    if (cur.length) blocks.push({ line: start, text: cur.join('\n') });
    cur = [];
  };
  md.split('\n').forEach((l, i) => {
    if (l.startsWith('```')) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    if (!l.trim()) return flush();
    if (!cur.length) start = i + 1;
    cur.push(l);
  });
  flush();
  return blocks;
}

/** A paragraph's sentences (a citation covers the sentence it is in). */
export function sentencesOf(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=[A-Z*(\[])|\n(?=- )/).filter((x) => x.trim());
}

const citationsOf = (text: string) => [...new Set([...text.matchAll(/bench\/results\/[\w.-]+\.(?:md|json)/g)].map((m) => m[0]))];

/** The numbers a block states as figures. */
export function figuresOf(text: string): string[] {
  const prose = text
    .replace(/`[^`]*`/g, ' ') // code: names, settings, commands
    .replace(/\]\([^)]*\)/g, ']') // link targets
    .replace(/\b\d{4}-\d{2}-\d{2}\b/g, ' ') // dates
    .replace(/\b(?:commit|build|main at|at)\s+[0-9a-f]{7,40}\b/gi, ' ') // commits
    .replace(/\b\d+(?:\.\d+){2,}\b/g, ' ') // versions (3.54.1, 0.1.9)
    .replace(/(?:[≤<≥>]|at most|at least|target[^\d]{0,12})\s*\d[\d,.]*/gi, ' ') // bounds and targets
    .replace(/[\w-]*\d+[\w-]*\.(?:md|json|ts|js)\b/g, ' '); // file names
  return [...prose.matchAll(/(?<![\w.])\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w])|(?<![\w.,])\d+(?:\.\d+)?(?![\w,]\d)/g)]
    .map((m) => m[0].replace(/,/g, ''))
    .filter((n) => n.includes('.') || Number(n) >= 10);
}

/** Whether a stated number is in a file's numbers, exactly or rounded to the digits it shows. */
export function holds(fileNumbers: readonly number[], stated: string): boolean {
  const decimals = stated.includes('.') ? stated.split('.')[1].length : 0;
  const want = Number(stated);
  return fileNumbers.some((n) => n === want || Number(n.toFixed(decimals)) === want);
}

function numbersOfResult(rel: string): number[] {
  const files = [rel, rel.replace(/\.md$/, '.json')].map((f) => path.join(REPO, f)).filter((f) => fs.existsSync(f));
  return files.flatMap((f) => [...fs.readFileSync(f, 'utf8').replace(/(\d),(\d{3})/g, '$1$2').matchAll(/-?\d+(?:\.\d+)?/g)].map((m) => Math.abs(Number(m[0]))));
}

describe('figures in the README and docs/', () => {
  it('the block parser and the figure filter work on a sample', () => {
    const md = 'a p95 of 3.72 ms ([x](../bench/results/a.md))\nand 10,000 runs\n\n```\n99 ms\n```\nplain 300 ms (target ≤ 2 s), Node 24.22.3, commit d787aca, `--k 40`, on 2026-12-02, 2 cores';
    const blocks = proseBlocks(md);
    expect(blocks.map((b) => b.line)).toEqual([1, 7]);
    expect(figuresOf(blocks[0].text)).toEqual(['3.72', '10000']);
    expect(figuresOf(blocks[1].text)).toEqual(['300']);
    expect(holds([3.7234, 10000], '3.72')).toBe(true);
    expect(holds([5.02], '5.0')).toBe(true);
    expect(holds([5.06], '5.0')).toBe(false);
    expect(sentencesOf('One 1.5 s wait; then. Then 20 ms (x).\n- a\n- b')).toEqual(['One 1.5 s wait; then.', 'Then 20 ms (x).', '- a', '- b']);
  });

  it('every sentence that reports a measurement cites a result file, and every figure it states is in one it cites', () => {
    const problems: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      let previous: string[] = [];
      for (const b of proseBlocks(fs.readFileSync(path.join(REPO, page), 'utf8'))) {
        // A table is one unit, under the citation of the sentence before it when it has none of its own.
        const table = b.text.startsWith('|');
        for (const unit of table ? [b.text] : sentencesOf(b.text)) {
          let cited = citationsOf(unit);
          if (!cited.length && table) cited = previous;
          const plain = unit.replace(/`[^`]*`/g, ' ');
          const figures = figuresOf(unit);
          if (!table) previous = citationsOf(unit);
          if (!cited.length) {
            if (MEASURED.test(plain) && figures.length) problems.push(`${page}:${b.line}: reports a measurement but cites no bench/results/ file: ${unit.slice(0, 140)}…`);
            continue;
          }
          for (const c of cited) if (!fs.existsSync(path.join(REPO, c))) problems.push(`${page}:${b.line}: cites ${c}, which does not exist`);
          const numbers = cited.flatMap(numbersOfResult);
          for (const f of figures) {
            checked++;
            if (!holds(numbers, f)) problems.push(`${page}:${b.line}: ${f} is in none of ${cited.join(', ')}: ${unit.slice(0, 100)}…`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(30);
  });
});

// The parse work budget (core/chunk/treesitter.ts): a parse is cut by a count of tree-sitter's progress
// checks, not by the clock, so what is indexed does not depend on how loaded the machine is.
// @lane unit
import { describe, it, expect } from 'vitest';
import { Chunker } from '../core/chunk/chunker.ts';
import { ParseOverBudget, PARSE_STEP_BUDGET, TreeSitterHost } from '../core/chunk/treesitter.ts';
import { splitLines } from '../core/scan/content.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';

const LIMITS = { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 };

/** A C# file big enough for a few hundred progress checks. */
function bigClass(members: number): string {
  const body = Array.from({ length: members }, (_, i) => `    public int Compute${i}(int x) { var y = x * ${i} + ${i % 7}; return y > ${i} ? y : x; }`);
  return `namespace Budget;\n\npublic class Big\n{\n${body.join('\n')}\n}\n`;
}

describe('parse work budget', () => {
  const grammars = createNodeGrammarSource();
  const text = bigClass(400);

  it('counts the same work for the same text on every parse, and cuts a parse exactly past its budget', async () => {
    const free = new TreeSitterHost(grammars);
    (await free.parse('c_sharp', text)).delete();
    const steps = free.lastParseSteps;
    expect(steps, 'a 400-member class takes a few hundred progress checks').toBeGreaterThan(50);
    for (let i = 0; i < 3; i++) {
      (await free.parse('c_sharp', text)).delete();
      expect(free.lastParseSteps, 'the count is a property of the text, not of the clock').toBe(steps);
    }
    // A budget of exactly that work parses; one check less does not, whatever the machine's speed.
    (await new TreeSitterHost(grammars, steps).parse('c_sharp', text)).delete();
    await expect(new TreeSitterHost(grammars, steps - 1).parse('c_sharp', text)).rejects.toBeInstanceOf(ParseOverBudget);
  });

  it('a file past the budget is a parse fallback (line windows); the default budget parses it whole', async () => {
    const lines = splitLines(text);
    const input = { path: 'Big.cs', lang: 'csharp', lines, text: lines.join('\n') };
    const cut = await new Chunker(new TreeSitterHost(grammars, 10)).chunk(input, LIMITS);
    expect(cut.parseFallback).toBe(true);
    const whole = await new Chunker(new TreeSitterHost(grammars)).chunk(input, LIMITS);
    expect(whole.parseFallback).toBe(false);
    expect(PARSE_STEP_BUDGET).toBeGreaterThan(10_000);
  });
});

// Keeps core/ and runtimes/ free of import circles: every relative import of every .ts file there
// (static, type-only, re-exports and dynamic import() alike) is an edge, and a depth-first walk of
// that graph must find no cycle. A circle is how core/chunk used to look (chunker → registry → each
// extractor → chunker for its input type; types now live in core/chunk/input.ts), and how the MCP
// tool table did (tools.ts ↔ intercom-tools.ts; what a tool is now lives in runtimes/mcp/tool.ts).
// @lane unit
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const coreDir = path.resolve(import.meta.dirname, '../core');
const runtimesDir = path.resolve(import.meta.dirname, '../runtimes');
const repoDir = path.resolve(import.meta.dirname, '..');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Relative specifiers a module imports, with comments removed first (prose cannot add an edge). */
function relativeImports(src: string): string[] {
  const code = src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:])\/\/.*$/gm, '$1');
  const found = [...code.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\s*\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm)];
  return found.map((m) => m[1] ?? m[2] ?? m[3]).filter((s) => s.startsWith('.'));
}

/** Every cycle a depth-first walk meets, each as `a.ts -> b.ts -> a.ts`. */
function findCycles(graph: Map<string, string[]>): string[][] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  const visit = (n: string) => {
    state.set(n, 'open');
    stack.push(n);
    for (const d of graph.get(n) ?? []) {
      if (state.get(d) === 'open') cycles.push([...stack.slice(stack.indexOf(d)), d]);
      else if (!state.has(d)) visit(d);
    }
    stack.pop();
    state.set(n, 'done');
  };
  for (const n of graph.keys()) if (!state.has(n)) visit(n);
  return cycles;
}

describe('core/ and runtimes/ have no import circle', () => {
  it('no module of core/ or runtimes/ reaches itself through its imports', () => {
    const files = [...tsFiles(coreDir), ...tsFiles(runtimesDir)].filter((f) => !f.endsWith('.d.ts'));
    expect(files.length).toBeGreaterThan(150);
    const graph = new Map(files.map((f) => [f, relativeImports(readFileSync(f, 'utf8')).map((s) => path.resolve(path.dirname(f), s))]));
    // Every edge points at a real file (a wrong resolution would hide cycles).
    for (const [f, deps] of graph) for (const d of deps) expect(graph.has(d), `${path.relative(repoDir, f)} imports ${path.relative(repoDir, d)}`).toBe(true);
    const cycles = findCycles(graph).map((c) => c.map((f) => path.relative(repoDir, f)).join(' -> '));
    expect(cycles).toEqual([]);
  });

  it('catches a cycle and every import form (the checker itself works)', () => {
    const src = [
      "import type { A } from './a.ts';",
      "export { B } from './b.ts';",
      "import './c.ts';",
      "const d = () => import('./d.ts');",
      "// import { X } from './comment.ts';",
      "import { z } from 'zod';",
    ].join('\n');
    expect(relativeImports(src)).toEqual(['./a.ts', './b.ts', './c.ts', './d.ts']);
    expect(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['b']], ['b', []]]))).toEqual([]);
  });
});

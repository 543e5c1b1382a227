// Keeps core/ platform-free: no node:* or bare Node built-in imports, no Deno, no DOM globals; and the
// runtime-neutral protocol layers (runtimes/mcp, runtimes/cli) free of node:*, Deno and process.
// @lane unit
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { builtinModules } from 'node:module';
import * as path from 'node:path';

const coreDir = path.resolve(import.meta.dirname, '../core');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Source without comments and string contents, so prose and messages cannot trip the check. */
function codeOnly(src: string): string {
  return src
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1')
    .replace(/`(?:\\.|[^`\\])*`/g, '``')
    .replace(/'(?:\\.|[^'\\\n])*'/g, (s) => (s.length > 2 ? "'s'" : s));
}

/** Every module specifier a source names: `import … from`, `export … from`, bare `import 'x'`, and `import('x')`. */
export function importSpecifiers(src: string): string[] {
  const re = /(?:^|[;\s])(?:import|export)\s[^'";]*?\sfrom\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g;
  return [...src.matchAll(re)].map((m) => m[1] ?? m[2] ?? m[3]);
}

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

describe('core/ is platform-free', () => {
  const files = tsFiles(coreDir);

  it('has sources to check', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it.each(files.map((f) => [path.relative(coreDir, f), f]))('%s imports no platform module and touches no platform global', (_rel, file) => {
    const src = readFileSync(file, 'utf8');
    for (const s of importSpecifiers(src)) {
      expect(s.startsWith('node:'), `${s} is a node: import`).toBe(false);
      expect(builtins.has(s), `${s} is a Node built-in`).toBe(false);
      expect(s.startsWith('npm:') || s.startsWith('jsr:') || /^https?:/.test(s), `${s} is a Deno-only specifier`).toBe(false);
    }
    const code = codeOnly(src);
    expect(code).not.toMatch(/\bDeno\s*\./);
    expect(code).not.toMatch(/\bprocess\s*\.(env|argv|exit|cwd|platform|pid|stdout|stderr)\b/);
    expect(code).not.toMatch(/\b(document|window|localStorage|sessionStorage|navigator)\s*\./);
    expect(code).not.toMatch(/\brequire\s*\(/);
    expect(code).not.toMatch(/\b__dirname\b|\b__filename\b|\bBuffer\s*\./);
  });

  it('catches a violation (the checker itself works)', () => {
    const bad = [
      "import * as fs from 'node:fs';",
      "import 'node:process';",
      "import\t\"node:worker_threads\";",
      "export { join } from 'path';",
      "import type {\n  Stats,\n} from \"node:fs\";",
      "import {x} from'crypto';",
      "const m = await import('node:os');",
      "import './local.ts'; const x = Deno.readFile('a');",
    ].join('\n');
    expect(codeOnly(bad)).toMatch(/\bDeno\s*\./);
    expect(importSpecifiers(bad)).toEqual(['node:fs', 'node:process', 'node:worker_threads', 'path', 'node:fs', 'crypto', 'node:os', './local.ts']);
    expect(importSpecifiers(bad).filter((s) => s.startsWith('node:') || builtins.has(s))).toHaveLength(7);
    // Words in prose and strings are not imports.
    expect(importSpecifiers("const note = 'we import data from elsewhere';")).toEqual([]);
  });
});

describe('runtimes/mcp and runtimes/cli are runtime-neutral', () => {
  const files = ['mcp', 'cli'].flatMap((d) => tsFiles(path.resolve(import.meta.dirname, '../runtimes', d)));

  it('has sources to check', () => {
    expect(files.length).toBeGreaterThan(8);
  });

  it.each(files.map((f) => [path.relative(path.resolve(import.meta.dirname, '..'), f), f]))('%s imports no node: module and touches no Deno or process', (_rel, file) => {
    const src = readFileSync(file, 'utf8');
    const specifiers = [...src.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((m) => m[1] ?? m[2]);
    for (const s of specifiers) {
      expect(s.startsWith('node:') || builtins.has(s), `${s} is a Node built-in`).toBe(false);
      expect(s.includes('/runtimes/node/') || s.includes('/runtimes/deno/') || s.startsWith('../node/') || s.startsWith('../deno/'), `${s} is a runtime's own module`).toBe(false);
    }
    const code = codeOnly(src);
    expect(code).not.toMatch(/\bDeno\s*\./);
    expect(code).not.toMatch(/\bprocess\s*\./);
  });
});

// No dead code behind an export: every value a module of core/ or runtimes/ exports (a function, a
// const, a class, an enum) is named again somewhere — in its own module, or in any module, test,
// bench, tool or the web demo that uses it. An export named nowhere else is code nothing runs (the
// Searcher left page.ts's MAX_LIMIT so: the bounds moved to core/contract/limits.ts). Comments do not
// count as a use. Exported types and interfaces likewise: one named nowhere runs nothing but is a
// shape kept true for no one, or a copy of the one used instead (core/vector/settings.ts's model2vec
// table type was the provider's settings interface again) — except those of a module a package entry
// (package.json "exports") re-exports whole: the published contract (`export type * from
// './contract/index.ts'`), which the package's users name. Exports used only inside their own module
// are allowed (they are often the module's tested seams).
// @lane unit
import { describe, it, expect } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const repoDir = path.resolve(import.meta.dirname, '..');
const USERS = ['core', 'runtimes', 'bench', 'test', 'web-demo/src', 'bin', 'scripts', 'tools'];

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name === 'dist' || name === 'fixtures' || name === 'sample-workspace') return [];
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(?:ts|tsx|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [p] : [];
  });
}

/** Source without comments (a name in prose is no use of it); `://` in a URL is no comment. */
export function withoutComments(src: string): string {
  return src.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The values a module exports by declaration. */
export function exportedValues(src: string): string[] {
  return [...withoutComments(src).matchAll(/^\s*export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|enum)\s+(\w+)/gm)].map((m) => m[1]);
}

/** How often each word occurs in the sources. */
export function wordCounts(sources: string[]): Map<string, number> {
  const n = new Map<string, number>();
  for (const src of sources) for (const [w] of withoutComments(src).matchAll(/[A-Za-z_$][\w$]*/g)) n.set(w, (n.get(w) ?? 0) + 1);
  return n;
}

/** The types and interfaces a module exports by declaration. */
export function exportedTypes(src: string): string[] {
  return [...withoutComments(src).matchAll(/^\s*export\s+(?:declare\s+)?(?:type|interface)\s+(\w+)/gm)].map((m) => m[1]);
}

/**
 * The modules (repo-relative .ts paths) the package's entries re-export whole (`export * from`,
 * `export type * from`), followed through re-exports of re-exports.
 */
export function publishedWhole(read: (file: string) => string, entries: string[]): Set<string> {
  const out = new Set<string>();
  const visit = (file: string) => {
    for (const [, rel] of withoutComments(read(file)).matchAll(/^\s*export\s+(?:type\s+)?\*\s+from\s+['"](\.[^'"]+)['"]/gm)) {
      const target = path.posix.join(path.posix.dirname(file), rel);
      if (!out.has(target)) (out.add(target), visit(target));
    }
  };
  for (const e of entries) visit(e);
  return out;
}

/** The sources of package.json's "exports" entries (an entry `./dist/<path>.js` names the source `<path>.ts`; no build output is read). */
function packageEntries(): string[] {
  const exports = JSON.parse(readFileSync(path.join(repoDir, 'package.json'), 'utf8')).exports as Record<string, string | { default?: string }>;
  return Object.values(exports)
    .map((e) => (typeof e === 'string' ? e : e.default ?? ''))
    .filter((e) => e.startsWith('./dist/') && e.endsWith('.js'))
    .map((e) => e.slice('./dist/'.length).replace(/\.js$/, '.ts'));
}

/** Exports (values, or what `exported` lists) named nowhere but in their own declaration. */
export function deadExports(modules: Array<{ file: string; src: string }>, users: string[], exported: (src: string) => string[] = exportedValues): string[] {
  const counts = wordCounts(users);
  return modules.flatMap(({ file, src }) => exported(src).filter((name) => (counts.get(name) ?? 0) <= 1).map((name) => `${file}: ${name}`));
}

describe('no dead exports', () => {
  it('every value core/ and runtimes/ export is used somewhere', () => {
    const all = USERS.flatMap((d) => files(path.join(repoDir, d)));
    const sources = all.map((f) => ({ file: path.relative(repoDir, f), src: readFileSync(f, 'utf8') }));
    const modules = sources.filter((s) => /^(?:core|runtimes)\//.test(s.file) && s.file.endsWith('.ts'));
    expect(modules.length).toBeGreaterThan(200);
    expect(modules.flatMap((m) => exportedValues(m.src)).length).toBeGreaterThan(500);
    expect(deadExports(modules, sources.map((s) => s.src))).toEqual([]);
  });

  it('every type and interface core/ and runtimes/ export is used somewhere', () => {
    const all = USERS.flatMap((d) => files(path.join(repoDir, d)));
    const sources = all.map((f) => ({ file: path.relative(repoDir, f), src: readFileSync(f, 'utf8') }));
    const modules = sources.filter((s) => /^(?:core|runtimes)\//.test(s.file) && s.file.endsWith('.ts'));
    const published = publishedWhole((f) => readFileSync(path.join(repoDir, f), 'utf8'), packageEntries());
    expect(published).toContain('core/contract/status.ts');
    const own = modules.filter((m) => !published.has(m.file));
    expect(own.flatMap((m) => exportedTypes(m.src)).length).toBeGreaterThan(300);
    expect(deadExports(own, sources.map((s) => s.src), exportedTypes)).toEqual([]);
  });

  it('finds an export nothing uses, and not one used in its own module, elsewhere or only by name in a comment (the checker itself works)', () => {
    const a = [
      'export const USED_HERE = 1;',
      'export function usedElsewhere() { return USED_HERE; }',
      'export async function dead() {}',
      '/** dead() is mentioned here only */ export class Gone {}',
      'export type NotAValue = string;',
      'const url = "https://x/y"; // usedElsewhere',
    ].join('\n');
    const b = "import { usedElsewhere } from './a.ts'; // Gone";
    expect(exportedValues(a)).toEqual(['USED_HERE', 'usedElsewhere', 'dead', 'Gone']);
    expect(deadExports([{ file: 'a.ts', src: a }], [a, b])).toEqual(['a.ts: dead', 'a.ts: Gone']);
    expect(exportedTypes(a + '\nexport interface Shape { n: number }\nexport type Used = Shape;\nconst u: Used = { n: 1 };')).toEqual(['NotAValue', 'Shape', 'Used']);
    expect(deadExports([{ file: 'a.ts', src: a }], [a, b], exportedTypes)).toEqual(['a.ts: NotAValue']);
    const tree: Record<string, string> = { 'e/index.ts': "export type * from './c/index.ts';\nexport { x } from './x.ts';", 'e/c/index.ts': "export * from './s.ts'; // export * from './no.ts'", 'e/c/s.ts': '' };
    expect([...publishedWhole((f) => tree[f], ['e/index.ts'])]).toEqual(['e/c/index.ts', 'e/c/s.ts']);
  });
});

// What the browser Worker loads before it answers (issue 37's "JS before searchable ≤ 160 KB", measured
// by bench/web-demo-bench.ts): the modules runtimes/browser/worker.ts reaches through static value
// imports (`import type` and `import()` excluded: a dynamic import is a chunk of its own, loaded on first
// use). A search of a stored index needs none of the indexing pass, the file watcher's tracker, the
// literal channel, tree-sitter, the semantic index or the settings parser; this keeps them out of the
// start, so that a static import added for a small helper (as the meta rows once pulled in the whole
// index writer) shows up here and not only as a few KB in the next bench run.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(import.meta.dirname, '..');

/** The relative modules a source imports for their values (`import type`, type-only names and `import()` left out). */
function staticValueImports(file: string): string[] {
  const src = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const out: string[] = [];
  for (const st of src.statements) {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(st)) {
      const clause = st.importClause;
      if (clause?.isTypeOnly) continue;
      const named = clause?.namedBindings;
      const onlyTypes = clause && !clause.name && named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
      if (onlyTypes) continue;
      spec = st.moduleSpecifier;
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      if (st.isTypeOnly) continue;
      const named = st.exportClause;
      if (named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly)) continue;
      spec = st.moduleSpecifier;
    }
    if (!spec || !ts.isStringLiteral(spec) || !spec.text.startsWith('.')) continue;
    const target = path.resolve(path.dirname(file), spec.text).replace(/\.js$/, '.ts');
    if (fs.existsSync(target)) out.push(target);
  }
  return out;
}

/** Every module reached from `entry` through static value imports, repository-relative. */
function startGraph(entry: string): Set<string> {
  const seen = new Set([path.join(ROOT, entry)]);
  for (const f of seen) for (const t of staticValueImports(f)) seen.add(t);
  return new Set([...seen].map((f) => path.relative(ROOT, f).split(path.sep).join('/')));
}

describe("the browser Worker's start (before its first search)", () => {
  const start = startGraph('runtimes/browser/worker.ts');

  it('holds the search path', () => {
    for (const m of ['core/workspace.ts', 'core/search/searcher.ts', 'core/search/pipeline.ts', 'core/index/store.ts', 'core/index/meta.ts']) {
      expect(start, m).toContain(m);
    }
  });

  it('leaves the indexing pass, the watcher, the literal channel, tree-sitter, vectors and settings parsing to first use', () => {
    const later = [
      'core/index/writer.ts', 'core/index/indexer.ts', 'core/index/gram-bloom.ts', 'core/index/literal-index.ts', 'core/freshness.ts',
      'core/search/channels/literal.ts', 'core/search/explain.ts', 'core/search/similar.ts', 'core/chunk/treesitter.ts', 'core/chunk/chunker.ts',
      'core/vector/semantic.ts', 'core/settings.ts', 'core/scan/walker.ts', 'runtimes/browser/sources.ts', 'runtimes/browser/intercom.ts',
    ];
    for (const m of later) {
      expect(fs.existsSync(path.join(ROOT, m)), `${m} exists`).toBe(true);
      expect(start, `${m} is loaded at start`).not.toContain(m);
    }
  });
});

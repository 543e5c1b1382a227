// Every row of the language table (core/languages/table.ts) is wired in all three runtimes. The
// table itself is sound (one row per extension, grammars that exist and are all used, a sample per
// row); then, in Node, in a real Deno process (through Deno's own grammar loader) and in headless
// Chromium (the Worker's grammar URLs from hciVitePlugin(), the Worker indexing every sample), each
// grammar loads and parses, and each row's samples get a real outline through exactly the grammars
// the row declares — a missing grammar would show as a line-window fallback, and fails here.
// @lane runtimes
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HciWorkspace } from '../core/workspace.ts';
import { createMemoryWorkspaceFs } from '../core/memory-fs.ts';
import { createMemoryIndexStorage } from '../core/index/memory-storage.ts';
import { GRAMMAR_IDS, GRAMMARS } from '../core/languages/grammars.ts';
import { LANGUAGES, languageById } from '../core/languages/table.ts';
import { extensionOf, languageOf } from '../core/scan/languages.ts';
import { DEFAULT_INCLUDE_EXTENSIONS } from '../core/settings.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { TEST_DIR, samplesByLanguage, wiringCheck, type WiringCheck } from './helpers/language-corpus.ts';
import { openSamplePage, call, REPO, type SamplePage } from './helpers/browser.ts';
import { chromiumBinary, denoBinary, titled } from './helpers/runtimes.ts';

const chromium = chromiumBinary();

const samples = samplesByLanguage();
const sampleFiles = [...samples.values()].flat().sort();
const allExtensions = LANGUAGES.flatMap((r) => [...r.extensions, ...(r.otherExtensions ?? [])]);
const sorted = <T>(xs: Iterable<T>) => [...xs].sort();

describe('the language table', () => {
  it('claims each extension once, lower-case with its dot, and the scanner maps it to its row', () => {
    expect(new Set(allExtensions).size).toBe(allExtensions.length);
    for (const row of LANGUAGES) {
      for (const ext of [...row.extensions, ...(row.otherExtensions ?? [])]) {
        expect(ext, row.id).toMatch(/^\.[a-z0-9]+$/);
        expect(languageOf(`src/Some.Name${ext}`), ext).toBe(row.id);
        expect(languageOf(`src/Some.Name${ext.toUpperCase()}`), ext).toBe(row.id);
      }
      expect(languageById(row.id)).toBe(row);
    }
    expect(new Set(LANGUAGES.map((r) => r.id)).size).toBe(LANGUAGES.length);
    // The settings' default is every row's default extensions, and nothing else.
    expect(DEFAULT_INCLUDE_EXTENSIONS).toEqual(LANGUAGES.flatMap((r) => r.extensions));
  });

  it('names only grammar-table grammars, and every grammar in the table serves some row', () => {
    const used = new Set(LANGUAGES.flatMap((r) => r.grammars));
    for (const row of LANGUAGES) for (const g of row.grammars) expect(GRAMMARS, `${row.id} → ${g}`).toHaveProperty(g);
    expect(sorted(used)).toEqual(sorted(GRAMMAR_IDS));
    for (const row of LANGUAGES) if (!row.extractor) expect(row.grammars, `${row.id} has no extractor to parse with`).toEqual([]);
  });

  it('has companions and key-path separators only where they mean something', () => {
    for (const row of LANGUAGES) {
      if (row.keyPathSeparator !== undefined) expect(row.extractor, `${row.id}: a key-path separator needs an extractor`).toBeDefined();
      if (row.companions) {
        const codeBehind = languageById(languageOf(`View${row.extensions[0]}${row.companions.codeBehind}`));
        expect(codeBehind?.extractor, `${row.id}: its code-behind language`).toBeDefined();
        if (row.companions.scopedCss) expect(languageById(languageOf(`View${row.extensions[0]}${row.companions.scopedCss}`))?.code, `${row.id}: scoped styles`).toBe(true);
      }
    }
  });

  it('has a sample file for every row (test/fixtures/chunking or test/sample-workspace)', () => {
    for (const row of LANGUAGES) expect(samples.get(row.id)?.length ?? 0, `add a ${row.extensions[0]} sample for ${row.id}`).toBeGreaterThan(0);
  });
});

/** The wiring claims, for one runtime's results: every grammar parsed, every row outlined through exactly its grammars. */
function expectWired(runtime: string, got: WiringCheck): void {
  expect(sorted(Object.keys(got.grammars)), `${runtime}: grammars loaded`).toEqual(sorted(GRAMMAR_IDS));
  for (const [id, root] of Object.entries(got.grammars)) expect(root, `${runtime}: ${id} parses`).toMatch(/^[A-Za-z_]+$/);
  for (const row of LANGUAGES) {
    const used = new Set<string>();
    for (const rel of samples.get(row.id) ?? []) {
      const f = got.files[rel];
      expect(f, `${runtime}: ${rel} chunked`).toBeDefined();
      expect(f.result.parseFallback, `${runtime}: ${rel} fell back to line windows`).toBe(false);
      if (row.extractor) expect(f.result.outline?.nodes.length ?? 0, `${runtime}: ${rel} has an outline`).toBeGreaterThan(0);
      for (const g of f.used) used.add(g);
    }
    expect(sorted(used), `${runtime}: the grammars ${row.id}'s extractor parsed its samples with`).toEqual(sorted(row.grammars));
  }
}

describe('every row is wired in Node, Deno and Chromium', () => {
  let fromNode: WiringCheck;

  beforeAll(async () => {
    fromNode = await wiringCheck(createNodeGrammarSource(), sampleFiles);
  });

  it('Node: every grammar loads from node_modules and parses; every row outlines its samples', () => {
    expect(sampleFiles.length).toBeGreaterThan(LANGUAGES.length);
    expectWired('Node', fromNode);
  });

  it('Deno: the same through runtimes/deno/grammars.ts in a Deno process, chunk for chunk as in Node', () => {
    const deno = denoBinary();
    expect(deno, 'deno is a devDependency: run npm ci').toBeTruthy();
    const run = spawnSync(
      deno!,
      ['run', '--no-prompt', `--allow-read=${TEST_DIR},${path.join(REPO, 'node_modules')}`, 'test/helpers/deno-languages.ts', ...sampleFiles],
      { cwd: REPO, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
    );
    expect(run.status, run.stderr).toBe(0);
    const fromDeno = JSON.parse(run.stdout) as WiringCheck;
    expectWired('Deno', fromDeno);
    expect(fromDeno.grammars).toEqual(fromNode.grammars);
    for (const rel of sampleFiles) expect(fromDeno.files[rel], rel).toEqual(JSON.parse(JSON.stringify(fromNode.files[rel])));
  });

  describe.skipIf(!chromium)(titled('Chromium', { Chromium: chromium }), () => {
    let test: SamplePage | undefined;

    beforeAll(async () => {
      test = await openSamplePage(chromium);
    }, 120_000);

    afterAll(async () => {
      await test?.close();
    });

    it('the Worker\'s grammar URLs cover the grammar table, each loads and parses; the Worker outlines every row\'s samples as Node does', async () => {
      const page = test!.page;
      const roots = await call(page, 'loadGrammars');
      expect(roots).toEqual(fromNode.grammars);

      const texts = Object.fromEntries(sampleFiles.map((rel) => [rel, fs.readFileSync(path.join(TEST_DIR, rel), 'utf8')]));
      // Every extension of every row, the recognised-only ones too.
      const settings = { include_extensions: allExtensions };
      await call(page, 'openMemory', 'languages', texts, settings);
      const { summary } = await call(page, 'index', 'languages');
      expect(summary.files_indexed).toBe(sampleFiles.length);
      expect(summary.parse_fallback).toBe(0);

      // The same files through the Node library, for the outlines to compare with.
      const node = await HciWorkspace.open(
        { fs: createMemoryWorkspaceFs('languages', texts), storage: createMemoryIndexStorage('language-wiring'), grammars: createNodeGrammarSource() },
        { settings },
      );
      try {
        expect((await node.index()).parse_fallback).toBe(0);
        for (const rel of sampleFiles) {
          const inBrowser = await call(page, 'outline', 'languages', rel);
          expect(inBrowser.status, rel).toBe('ok');
          expect(inBrowser.lang, rel).toBe(languageOf(rel));
          if (languageById(languageOf(rel))?.extractor) expect(inBrowser.symbols.length, `${rel} (${extensionOf(rel)}) has an outline in Chromium`).toBeGreaterThan(0);
          const inNode = await node.outline(rel);
          expect(inBrowser.symbols, rel).toEqual(inNode.symbols);
        }
      } finally {
        node.close();
      }
    });
  });
});

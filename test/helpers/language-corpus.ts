// The files the language tests chunk: every golden fixture source (test/fixtures/chunking) and every
// sample-workspace file, as paths relative to test/, with the language each one has; and a
// TreeSitterHost that records which grammars a parse asked for. Shared by the chunker-version guard,
// the three-runtime wiring test and its Deno child (test/helpers/deno-languages.ts), so it imports
// neither vitest nor anything Node-only beyond node:fs and node:path (Deno runs those too).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { TreeSitterHost, type GrammarName } from '../../core/chunk/treesitter.ts';
import type { Tree } from 'web-tree-sitter';
import { languageOf, type LangId } from '../../core/scan/languages.ts';

export const TEST_DIR = path.resolve(import.meta.dirname, '..');

function walk(root: string, dir = root): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === '.hci' ? [] : walk(root, p);
    return e.isFile() && !e.name.endsWith('.golden') ? [path.relative(root, p).split(path.sep).join('/')] : [];
  });
}

/** Every fixture source and sample-workspace file, relative to test/, sorted. */
export function chunkCorpus(): string[] {
  return [...walk(TEST_DIR, path.join(TEST_DIR, 'fixtures/chunking')), ...walk(TEST_DIR, path.join(TEST_DIR, 'sample-workspace'))].sort();
}

/** The corpus files of each language (files no row claims are left out). */
export function samplesByLanguage(files = chunkCorpus()): Map<LangId, string[]> {
  const out = new Map<LangId, string[]>();
  for (const f of files) {
    const lang = languageOf(f);
    if (lang === 'text') continue;
    out.set(lang, [...(out.get(lang) ?? []), f]);
  }
  return out;
}

/** A TreeSitterHost that notes every grammar a parse used since the last `reset()`. */
export class RecordingHost extends TreeSitterHost {
  used = new Set<GrammarName>();

  reset(): Set<GrammarName> {
    const was = this.used;
    this.used = new Set();
    return was;
  }

  override async parse(name: GrammarName, text: string): Promise<Tree> {
    this.used.add(name);
    return super.parse(name, text);
  }
}

// The files the language tests chunk: every golden fixture source (test/fixtures/chunking) and every
// sample-workspace file, as paths relative to test/, with the language each one has; and a
// TreeSitterHost that records which grammars a parse asked for, and the wiring check one runtime runs. Shared by the chunker-version guard,
// the three-runtime wiring test and its Deno child (test/helpers/deno-languages.ts), so it imports
// neither vitest nor anything Node-only beyond node:fs and node:path (Deno runs those too).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost, type GrammarName, type GrammarSource } from '../../core/chunk/treesitter.ts';
import type { ChunkResult } from '../../core/chunk/types.ts';
import type { Tree } from 'web-tree-sitter';
import { GRAMMAR_IDS } from '../../core/languages/grammars.ts';
import { splitLines } from '../../core/scan/content.ts';
import { languageOf } from '../../core/scan/languages.ts';

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
export function samplesByLanguage(files = chunkCorpus()): Map<string, string[]> {
  const out = new Map<string, string[]>();
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

/** What one runtime's grammar source did with the grammar table and the corpus. */
export interface WiringCheck {
  /** Grammar id → the root node type of a one-token parse. */
  grammars: Record<string, string>;
  /** test/-relative path → the grammars its parse used, and its chunks at the indexer's defaults. */
  files: Record<string, { used: string[]; result: ChunkResult }>;
}

/** Loads and parses every grammar-table entry through `source`, then chunks each file, noting its grammars. */
export async function wiringCheck(source: GrammarSource, files: readonly string[]): Promise<WiringCheck> {
  const host = new RecordingHost(source, 60_000); // generous: a loaded machine must not cause a fallback
  const grammars: Record<string, string> = {};
  for (const id of GRAMMAR_IDS) {
    const tree = await host.parse(id, 'x');
    grammars[id] = tree.rootNode.type;
    tree.delete();
  }
  host.reset();
  const chunker = new Chunker(host);
  const out: WiringCheck['files'] = {};
  for (const rel of files) {
    const lines = splitLines(fs.readFileSync(path.join(TEST_DIR, rel), 'utf8'));
    const result = await chunker.chunk({ path: rel, lang: languageOf(rel), lines, text: lines.join('\n') }, { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 });
    out[rel] = { used: [...host.reset()].sort(), result };
  }
  return { grammars, files: out };
}

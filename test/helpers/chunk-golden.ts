// Shared by the golden chunking tests: chunk a fixture or sample-workspace file with the real
// chunker and grammars, and render outlines and chunks as compact lines that read like the files'
// structure (`  rule .btn 37-47`, `24-27 property Window.KeyBindings`).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost } from '../../core/chunk/treesitter.ts';
import type { ChunkLimits, ChunkResult, ChunkDraft } from '../../core/chunk/types.ts';
import { flattenOutline, type FileOutline, type OutlineNode } from '../../core/chunk/outline.ts';
import { expect } from 'vitest';
import { splitLines } from '../../core/scan/content.ts';
import { languageOf } from '../../core/scan/languages.ts';
import { createNodeGrammarSource } from '../../runtimes/node/grammars.ts';

export const LIMITS: ChunkLimits = { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 };
export const testDir = path.resolve(import.meta.dirname, '..');
export const sampleDir = path.join(testDir, 'sample-workspace');
export const fixtureDir = path.join(testDir, 'fixtures/chunking');

export const host = new TreeSitterHost(createNodeGrammarSource());
export const chunker = new Chunker(host);

export interface Chunked extends ChunkResult {
  lines: string[];
}

/** Chunks text as the indexer would, with the language taken from `rel`'s extension. */
export async function chunkText(rel: string, text: string, limits = LIMITS): Promise<Chunked> {
  const lines = splitLines(text);
  const r = await chunker.chunk({ path: rel, lang: languageOf(rel), lines, text: lines.join('\n') }, limits);
  return { ...r, lines };
}

/** Chunks a file under test/ (`sample-workspace/…` or `fixtures/chunking/…`). */
export async function chunkFile(relToTest: string, limits = LIMITS): Promise<Chunked> {
  const text = fs.readFileSync(path.join(testDir, relToTest), 'utf8');
  return chunkText(relToTest, text, limits);
}

/** `kind name start-end [key=…]`, indented two spaces per level. */
export function outlineLines(outline: FileOutline | null, withKeys = true): string[] {
  const out: string[] = [];
  const walk = (nodes: OutlineNode[], depth: number) => {
    for (const n of nodes) {
      out.push(`${'  '.repeat(depth)}${n.kind} ${n.name} ${n.startLine}-${n.endLine}${withKeys && n.memberKey ? ` key=${n.memberKey}` : ''}`);
      walk(n.children, depth + 1);
    }
  };
  walk(outline?.nodes ?? [], 0);
  return out;
}

/** `start-end kind symbolName`. */
export function chunkLines(chunks: ChunkDraft[]): string[] {
  return chunks.map((c) => `${c.startLine}-${c.endLine} ${c.kind} ${c.symbol?.name ?? '-'}`);
}

/** The first node (depth-first) matching a predicate. */
export function findNode(outline: FileOutline | null, pred: (n: OutlineNode) => boolean): OutlineNode | undefined {
  const work = [...(outline?.nodes ?? [])];
  while (work.length) {
    const n = work.shift()!;
    if (pred(n)) return n;
    work.unshift(...n.children);
  }
  return undefined;
}

/** Every line in some chunk, chunks inside the file and within the limits, outline nested in its parents. */
export function expectWellFormed(r: Chunked, limits = LIMITS): string[] {
  const problems: string[] = [];
  const n = r.lines.length;
  const covered = new Uint8Array(n + 2);
  for (const c of r.chunks) {
    if (c.startLine < 1 || c.endLine > n || c.endLine < c.startLine) problems.push(`chunk ${c.startLine}-${c.endLine} outside 1-${n}`);
    if (c.endLine - c.startLine + 1 > limits.chunkLines) problems.push(`chunk ${c.startLine}-${c.endLine} over the line limit`);
    for (let i = Math.max(1, c.startLine); i <= Math.min(n, c.endLine); i++) covered[i] = 1;
  }
  for (let i = 1; i <= n; i++) if (!covered[i]) problems.push(`line ${i} in no chunk`);
  const walk = (nodes: OutlineNode[], lo: number, hi: number) => {
    for (const node of nodes) {
      if (node.startLine < lo || node.endLine > hi || node.endLine < node.startLine) problems.push(`${node.kind} ${node.name} ${node.startLine}-${node.endLine} outside ${lo}-${hi}`);
      walk(node.children, node.startLine, node.endLine);
    }
  };
  walk(r.outline?.nodes ?? [], 1, n);
  return problems;
}

/** A readable, diffable rendering of an outline and its chunks (the `.golden` file format). */
export function renderGolden(res: ChunkResult): string {
  const out: string[] = ['# outline'];
  if (res.outline?.fileContext) out.push(`fileContext: ${res.outline.fileContext.join(' | ')}`);
  const walk = (nodes: OutlineNode[], depth: number) => {
    for (const n of nodes) {
      const pad = '  '.repeat(depth);
      out.push(`${pad}${n.kind} ${n.name} [${n.startLine}-${n.endLine}]${n.memberKey ? ` key=${n.memberKey}` : ''}${n.role === 'container' ? ' (container)' : ''}`);
      if (n.context) out.push(`${pad}  context: ${n.context}`);
      if (n.facts?.length) out.push(`${pad}  facts: ${n.facts.join(' | ')}`);
      walk(n.children, depth + 1);
    }
  };
  walk(res.outline?.nodes ?? [], 0);
  out.push('# chunks');
  for (const c of res.chunks) {
    const sym = c.symbol ? ` ${c.symbol.kind}:${c.symbol.name}${c.symbol.memberKey ? ` key=${c.symbol.memberKey}` : ''}` : '';
    out.push(`${c.startLine}-${c.endLine} ${c.kind}${sym}`);
    if (c.header) out.push(`  header: ${c.header.split('\n').join(' | ')}`);
  }
  return `${out.join('\n')}\n`;
}

/** Compares with `<file>.golden`; HCI_UPDATE_GOLDEN=1 rewrites it. A missing golden fails. */
export function expectGolden(file: string, actual: string): void {
  const golden = `${file}.golden`;
  if (process.env.HCI_UPDATE_GOLDEN === '1') fs.writeFileSync(golden, actual);
  if (!fs.existsSync(golden)) throw new Error(`${golden} is missing: run with HCI_UPDATE_GOLDEN=1 and review the file`);
  expect(actual).toBe(fs.readFileSync(golden, 'utf8'));
}

export function nodesOf(outline: FileOutline | null): OutlineNode[] {
  return outline ? flattenOutline(outline).map((x) => x.node) : [];
}

export function byKey(outline: FileOutline | null, key: string): OutlineNode {
  const n = nodesOf(outline).find((x) => x.memberKey === key);
  if (!n) throw new Error(`no node with key ${key}; keys: ${nodesOf(outline).map((x) => x.memberKey).filter(Boolean).join('\n')}`);
  return n;
}

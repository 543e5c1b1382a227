// Cuts a file's chunks from its outline: members and other units become chunks, small neighbours
// are packed together, lines between units join a neighbour or form bounded chunks of their own,
// and units over the limits are split into windows that keep their header. Guarantees: every line
// belongs to a chunk, no chunk exceeds the line limit, ranges are 1-based and inside the file.
// Language knowledge stays in the extractors; this module only knows the outline shape.
import type { ChunkDraft, ChunkLimits, ChunkSymbol } from './types.ts';
import type { FileOutline, OutlineNode } from './outline.ts';
import { lineWindows } from './line-windows.ts';

export interface BuildParams {
  /** A container this small (in lines) becomes one chunk instead of being cut into its children. */
  smallContainerLines: number;
  /** Units shorter than this are packed with small neighbours of the same parent… */
  packBelowLines: number;
  /** …into chunks of at most this many lines. */
  packLines: number;
  /** Runs of lines between units up to this long join a neighbouring chunk. */
  attachGapLines: number;
  /** Most characters a header may carry. */
  maxHeaderChars: number;
}

export const DEFAULT_BUILD_PARAMS: BuildParams = {
  smallContainerLines: 30,
  packBelowLines: 6,
  packLines: 30,
  attachGapLines: 12,
  maxHeaderChars: 800,
};

interface Unit {
  start: number;
  end: number;
  node: OutlineNode | null;
  parent: OutlineNode | null;
  context: string[];
  /** Facts of containers that were cut into children; the first unit inside carries them. */
  inherited?: string[];
  /** The head of a cut-up container (its lines before the first child): its facts are inherited. */
  head?: boolean;
}

const CLOSER = /^\s*(?:[}\])];?,?|<\/[^>]+>|#endregion\b.*|end\b.*)?\s*$/;

/**
 * Adds a container's context line. A line that extends the previous container's line (an element
 * path, a heading path, a key path: `Window > DockPanel` → `Window > DockPanel > Grid`) replaces it
 * instead of repeating it; file context lines are never replaced.
 */
function withContext(context: string[], line: string, fixed: number): string[] {
  const last = context.length > fixed ? context[context.length - 1] : undefined;
  const extends_ = last !== undefined && line.length > last.length && line.startsWith(last) && ' .[/'.includes(line[last.length]);
  return extends_ ? [...context.slice(0, -1), line] : [...context, line];
}

function collectUnits(outline: FileOutline, p: BuildParams): Unit[] {
  const fixed = outline.fileContext?.length ?? 0;
  const units: Unit[] = [];
  const visit = (node: OutlineNode, parent: OutlineNode | null, context: string[], inherited: string[]) => {
    const size = node.endLine - node.startLine + 1;
    if (node.role === 'unit' || node.children.length === 0 || size <= p.smallContainerLines) {
      units.push({ start: node.startLine, end: node.endLine, node, parent, context, inherited });
      return;
    }
    const inner = node.context ? withContext(context, node.context, fixed) : context;
    // A container that is cut up keeps its facts (a CI job's runs-on, a view's x:Class) on its first
    // piece; a long head before its first child (a type's doc comment, attributes and declaration)
    // is that piece, under the container's own symbol.
    let facts = [...inherited, ...(node.facts ?? [])];
    const headEnd = node.children[0].startLine - 1;
    if (headEnd - node.startLine + 1 > p.attachGapLines) {
      units.push({ start: node.startLine, end: headEnd, node, parent, context: inner, inherited: facts, head: true });
      facts = [];
    }
    node.children.forEach((child, i) => visit(child, node, inner, i === 0 ? facts : []));
  };
  for (const n of outline.nodes) visit(n, null, outline.fileContext ?? [], []);
  units.sort((a, b) => a.start - b.start || b.end - a.end);
  // Outlines from real parsers nest cleanly; clip any overlap so ranges stay disjoint anyway.
  const clean: Unit[] = [];
  for (const u of units) {
    const prev = clean[clean.length - 1];
    if (prev && u.start <= prev.end) u.start = prev.end + 1;
    if (u.start <= u.end) clean.push(u);
  }
  return clean;
}

/** The deepest container among the units' parents that spans [a, b], for gap chunks' symbol. */
function enclosing(outline: FileOutline, a: number, b: number): { node: OutlineNode | null; context: string[] } {
  let best: OutlineNode | null = null;
  let context = outline.fileContext ?? [];
  let level = outline.nodes;
  let ctx = context;
  for (;;) {
    const n = level.find((x) => x.startLine <= a && x.endLine >= b && x.children.length > 0);
    if (!n) break;
    best = n;
    context = ctx;
    ctx = n.context ? withContext(ctx, n.context, outline.fileContext?.length ?? 0) : ctx;
    level = n.children;
  }
  return { node: best, context: best ? ctx : context };
}

function fillGaps(units: Unit[], lines: readonly string[], outline: FileOutline, p: BuildParams): Unit[] {
  const total = lines.length;
  const out: Unit[] = [];
  const isBlank = (i: number) => lines[i - 1].trim() === '';
  const addGap = (a: number, b: number, prev: Unit | undefined, next: Unit | undefined) => {
    if (a > b) return;
    let allBlank = true;
    for (let i = a; i <= b && allBlank; i++) allBlank = isBlank(i);
    if (b - a + 1 > p.attachGapLines && !allBlank) {
      const { node, context } = enclosing(outline, a, b);
      out.push({ start: a, end: b, node: null, parent: node, context });
    } else if (!prev && !next) {
      out.push({ start: a, end: b, node: null, parent: null, context: outline.fileContext ?? [] });
    } else if (!next) {
      prev!.end = b;
    } else if (!prev) {
      next.start = a;
    } else {
      // Closing braces and blank lines right after a unit stay with it; the rest leads into the next.
      let split = a;
      while (split <= b && CLOSER.test(lines[split - 1])) split++;
      if (split > a) prev.end = split - 1;
      if (split <= b) next.start = split;
    }
  };
  let cursor = 1;
  units.forEach((u, i) => {
    addGap(cursor, u.start - 1, units[i - 1], u);
    out.push(u);
    cursor = u.end + 1;
  });
  addGap(cursor, total, units.at(-1), undefined);
  return out.sort((a, b) => a.start - b.start);
}

function symbolOf(n: OutlineNode): ChunkSymbol {
  return { kind: n.kind, name: n.name, ...(n.memberKey ? { memberKey: n.memberKey } : {}) };
}

const MAX_CONTEXT_LINE = 200;
const MAX_MEMBER_LIST = 300;

/** Names of packed members, capped (a declaration file can pack hundreds into one chunk). */
function memberList(names: string[]): string {
  let out = '';
  for (let i = 0; i < names.length; i++) {
    const next = out ? `${out}, ${names[i]}` : names[i];
    if (next.length > MAX_MEMBER_LIST) return `${out}, … (+${names.length - i})`;
    out = next;
  }
  return out;
}

function headerOf(context: string[], facts: string[], p: BuildParams): string {
  // Long context lines (attribute-heavy type declarations) are capped so facts still fit;
  // packed neighbours often share facts (`indent_size=2` twice): each line once.
  const capped = context.map((c) => (c.length > MAX_CONTEXT_LINE ? `${c.slice(0, MAX_CONTEXT_LINE - 1)}…` : c));
  const text = [...new Set([...capped, ...facts])].filter(Boolean).join('\n');
  return text.length > p.maxHeaderChars ? `${text.slice(0, p.maxHeaderChars - 1)}…` : text;
}

/** Groups consecutive small units of one parent so tiny members do not become tiny chunks. */
function pack(units: Unit[], p: BuildParams): Unit[][] {
  const groups: Unit[][] = [];
  let current: Unit[] = [];
  const size = (g: Unit[]) => g[g.length - 1].end - g[0].start + 1;
  const small = (u: Unit) => u.node !== null && u.end - u.start + 1 < p.packBelowLines;
  for (const u of units) {
    const last = current[current.length - 1];
    if (last && small(u) && small(last) && last.parent === u.parent && u.end - current[0].start + 1 <= p.packLines) {
      current.push(u);
      continue;
    }
    if (current.length) groups.push(current);
    current = [u];
  }
  if (current.length) groups.push(current);
  return groups.filter((g) => size(g) > 0);
}

export function chunksFromOutline(lines: readonly string[], outline: FileOutline, limits: ChunkLimits, params: BuildParams = DEFAULT_BUILD_PARAMS): ChunkDraft[] {
  if (lines.length === 0) return [];
  const p = outline.pack ? { ...params, packBelowLines: outline.pack.belowLines, packLines: outline.pack.packLines } : params;
  const units = fillGaps(collectUnits(outline, p), lines, outline, p);
  const chunks: ChunkDraft[] = [];
  for (const group of pack(units, p)) {
    const start = group[0].start;
    const end = group[group.length - 1].end;
    const nodes = group.map((u) => u.node).filter((n): n is OutlineNode => n !== null);
    let symbol: ChunkSymbol | null = null;
    let kind = 'gap';
    if (nodes.length === 1) {
      symbol = symbolOf(nodes[0]);
      kind = nodes[0].kind;
    } else if (nodes.length > 1) {
      // Packed neighbours: all their names are searchable; the key is their common parent's.
      const parentKey = group[0].parent?.memberKey;
      symbol = { kind: 'members', name: memberList(nodes.map((n) => n.name)), ...(parentKey ? { memberKey: parentKey } : {}) };
      kind = 'members';
    } else if (group[0].parent) {
      symbol = { kind: group[0].parent.kind, name: group[0].parent.name, ...(group[0].parent.memberKey ? { memberKey: group[0].parent.memberKey } : {}) };
    }
    const facts = group.flatMap((u) => [...(u.inherited ?? []), ...(u.head ? [] : (u.node?.facts ?? []))]);
    const header = headerOf(group[0].context, facts, p);
    let bytes = 0;
    for (let i = start; i <= end; i++) bytes += lines[i - 1].length + 1;
    if (end - start + 1 <= limits.chunkLines && bytes <= limits.maxChunkBytes) {
      chunks.push({ startLine: start, endLine: end, kind, symbol, header });
    } else {
      for (const w of lineWindows(lines, limits, header, start, end)) chunks.push({ ...w, kind, symbol });
    }
  }
  return chunks;
}

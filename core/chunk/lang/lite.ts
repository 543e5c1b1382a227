// Shared helpers for the outline extractors: a plain-object copy of a tree-sitter tree (one linear
// cursor walk, rows and text taken from the source in JS, so extractors never pay the per-call cost
// of the Node API), line arithmetic, fact lists and a few string helpers. Owns no language knowledge.
import type { Tree } from 'web-tree-sitter';
import type { OutlineNode } from '../outline.ts';

export interface LiteNode {
  type: string;
  named: boolean;
  /** The field name under which this node hangs from its parent, if any. */
  field: string | null;
  /** 0-based rows, as tree-sitter reports them. */
  startRow: number;
  endRow: number;
  endCol: number;
  /** Offsets into the parsed text (UTF-16 code units, as JS strings index). */
  startIndex: number;
  endIndex: number;
  /** The node's source text, only for node types the caller asked for (`text` option). */
  text?: string;
  children: LiteNode[];
}

export interface LiteOptions {
  /** Descend into nodes of this type? (Default: always.) Pruning strings and scalars keeps big files cheap. */
  descend?: (type: string) => boolean;
  /** Keep the source text of nodes of this type (`field`: the field it hangs under). */
  text?: (type: string, named: boolean, field: string | null) => boolean;
  /** Keep anonymous nodes (punctuation, keywords)? Default true; dropping them halves big trees. */
  anonymous?: boolean;
}

/** Offsets at which each row of `text` starts (row 0 at 0; tree-sitter counts rows at '\n' only). */
function rowStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return starts;
}

/** The row holding offset `index`: the last row starting at or before it (binary search). */
function rowAt(starts: readonly number[], index: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * Copies a tree into plain objects with one cursor walk (linear in the nodes visited). `source` is the
 * text the tree was parsed from: rows, columns and node text are computed from it in JS (the same
 * values tree-sitter reports), so each node costs four calls into the wasm (type id, field id, start
 * and end offsets) rather than eight, and named-ness is asked once per node type.
 */
export function toLite(tree: Tree, source: string, opts: LiteOptions = {}): LiteNode {
  const cursor = tree.walk();
  const descend = opts.descend ?? (() => true);
  const wantText = opts.text ?? (() => false);
  const keepAnonymous = opts.anonymous ?? true;
  const { types, fields } = tree.language;
  const starts = rowStarts(source);
  const namedByType = new Map<number, boolean>();
  const isNamed = (typeId: number): boolean => {
    let named = namedByType.get(typeId);
    if (named === undefined) {
      named = cursor.nodeIsNamed;
      namedByType.set(typeId, named);
    }
    return named;
  };
  // Preorder start offsets never decrease, so the start row only moves forward from the last one.
  let startRow = 0;
  const make = (typeId: number, named: boolean): LiteNode => {
    const type = types[typeId] || 'ERROR';
    const field = fields[cursor.currentFieldId] ?? null;
    const startIndex = cursor.startIndex;
    const endIndex = cursor.endIndex;
    if (startIndex < starts[startRow]) startRow = rowAt(starts, startIndex);
    while (startRow + 1 < starts.length && starts[startRow + 1] <= startIndex) startRow++;
    const endRow = endIndex === startIndex ? startRow : rowAt(starts, endIndex);
    const n: LiteNode = {
      type,
      named,
      field,
      startRow,
      endRow,
      endCol: endIndex - starts[endRow],
      startIndex,
      endIndex,
      children: [],
    };
    if (wantText(type, named, field)) n.text = source.slice(startIndex, endIndex);
    return n;
  };
  try {
    const rootType = cursor.nodeTypeId;
    const root = make(rootType, isNamed(rootType));
    // Iterative walk: deep inputs (nested arrays, long element chains) must not overflow the stack.
    const stack: LiteNode[] = [root];
    if (!descend(root.type) || !cursor.gotoFirstChild()) return root;
    for (;;) {
      const typeId = cursor.nodeTypeId;
      const named = isNamed(typeId);
      if (keepAnonymous || named) {
        const node = make(typeId, named);
        stack[stack.length - 1].children.push(node);
        if (descend(node.type) && cursor.gotoFirstChild()) {
          stack.push(node);
          continue;
        }
      }
      while (!cursor.gotoNextSibling()) {
        if (stack.length === 1) return root;
        cursor.gotoParent();
        stack.pop();
      }
    }
  } finally {
    cursor.delete();
  }
}

/** 1-based first line of a node. */
export function firstLine(n: LiteNode): number {
  return n.startRow + 1;
}

/** 1-based last line of a node; a node ending at column 0 ends on the line before. */
export function lastLine(n: LiteNode): number {
  return n.endCol === 0 && n.endRow > n.startRow ? n.endRow : n.endRow + 1;
}

/** Named children that are not comments (and, optionally, of the given types). */
export function kids(n: LiteNode, ...types: string[]): LiteNode[] {
  return n.children.filter((c) => c.named && c.type !== 'comment' && (types.length === 0 || types.includes(c.type)));
}

export function childByField(n: LiteNode, field: string): LiteNode | undefined {
  return n.children.find((c) => c.field === field);
}

/** Distinct, non-empty facts in first-seen order, at most `max`. */
export class Facts {
  private readonly seen = new Set<string>();
  readonly list: string[] = [];
  constructor(private readonly max = 40) {}
  add(fact: string | null | undefined): void {
    if (!fact || this.list.length >= this.max) return;
    const f = fact.length > 200 ? `${fact.slice(0, 199)}…` : fact;
    if (this.seen.has(f)) return;
    this.seen.add(f);
    this.list.push(f);
  }
  addAll(facts: readonly string[] | undefined): void {
    if (facts) for (const f of facts) this.add(f);
  }
  get full(): boolean {
    return this.list.length >= this.max;
  }
  result(): string[] | undefined {
    return this.list.length ? this.list : undefined;
  }
}

/** Collapses whitespace runs to one space and trims. */
export function squash(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Cuts a display name to a sane length. */
export function clip(s: string, max = 120): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}

/** Last line at or before `line` (1-based) that is not blank, not before `floor`. */
export function lastContentLine(lines: readonly string[], line: number, floor: number, isComment?: (l: string) => boolean): number {
  let i = line;
  while (i > floor) {
    const t = lines[i - 1].trim();
    if (t !== '' && !(isComment && isComment(t))) break;
    i--;
  }
  return i;
}

/** The file name without directories and (last) extension: `Views/MainWindow.axaml` → `MainWindow`. */
export function stem(path: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * Gives every container the facts of its children too (own facts first, capped): a container small
 * enough to become one chunk carries its children's facts into that chunk's header.
 */
export function rollUpFacts(nodes: OutlineNode[], max = 40): void {
  for (const n of nodes) {
    if (!n.children.length) continue;
    rollUpFacts(n.children, max);
    const facts = new Facts(max);
    facts.addAll(n.facts);
    for (const c of n.children) facts.addAll(c.facts);
    const r = facts.result();
    if (r) n.facts = r;
  }
}

// XML documents for the XAML, MSBuild and .slnx extractors: parses with the xml grammar and rebuilds
// the element tree from its tags with a stack, so a broken document (an unclosed element, a stray end
// tag, a bad attribute) still yields every element the parser could see — a partial tree, never a
// crash. Owns XML structure only; what an element means is each extractor's business.
import type { TreeSitterHost } from '../treesitter.ts';
import { firstLine, lastLine, toLite, type LiteNode } from './lite.ts';

export interface XAttr {
  name: string;
  value: string;
  line: number;
}

export interface XElement {
  name: string;
  attrs: XAttr[];
  /** 1-based lines: the element from its start tag to its end tag. */
  start: number;
  end: number;
  children: XElement[];
  parent: XElement | null;
  /** Character data directly inside the element (trimmed pieces joined by a space, capped). */
  text: string;
}

export interface XDocument {
  roots: XElement[];
  /** The parser reported errors; the tree may be partial. */
  broken: boolean;
}

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

export function decodeXml(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|lt|gt|amp|quot|apos);/g, (_m, e: string) => {
    if (e[0] !== '#') return ENTITIES[e];
    const code = e[1] === 'x' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return code > 0 && code < 0x110000 ? String.fromCodePoint(code) : '';
  });
}

export function attr(el: XElement, name: string): string | undefined {
  for (const a of el.attrs) if (a.name === name) return a.value;
  return undefined;
}

/** Local name without a namespace prefix: `x:Key` → `Key`. */
export function localName(name: string): string {
  const i = name.indexOf(':');
  return i < 0 ? name : name.slice(i + 1);
}

const TAG_TYPES = new Set(['STag', 'EmptyElemTag', 'ETag']);
const MAX_TEXT = 400;

function tagName(tag: LiteNode): string {
  const n = tag.children.find((c) => c.type === 'Name');
  return n?.text ?? '';
}

function tagAttrs(tag: LiteNode): XAttr[] {
  const out: XAttr[] = [];
  for (const a of tag.children) {
    if (a.type !== 'Attribute') continue;
    const name = a.children.find((c) => c.type === 'Name')?.text;
    const raw = a.children.find((c) => c.type === 'AttValue')?.text;
    if (!name || raw === undefined) continue;
    const q = raw[0];
    const value = (q === '"' || q === "'") && raw.length >= 2 && raw.endsWith(q) ? raw.slice(1, -1) : raw;
    out.push({ name, value: decodeXml(value), line: firstLine(a) });
  }
  return out;
}

/** Parses an XML document into elements; null when the parser finds no element at all. */
export async function parseXml(ts: TreeSitterHost, text: string): Promise<XDocument | null> {
  const tree = await ts.parse('xml', text);
  let lite: LiteNode;
  let broken: boolean;
  try {
    broken = tree.rootNode.hasError;
    lite = toLite(tree, text, {
      // Bare `</` tokens matter only inside error nodes; a clean tree needs named nodes only.
      anonymous: broken,
      descend: (t) => t !== 'CharData' && t !== 'Comment' && t !== 'AttValue' && t !== 'Name' && t !== 'PI' && t !== 'CDSect',
      text: (t) => t === 'Name' || t === 'AttValue' || t === 'CharData' || t === 'CDSect',
    });
  } finally {
    tree.delete();
  }
  const roots: XElement[] = [];
  const stack: XElement[] = [];
  const lastEnd = (el: XElement, floor: number) => Math.max(floor, el.start, ...el.children.slice(-1).map((c) => c.end));
  const open = (tag: LiteNode, empty: boolean) => {
    const el: XElement = {
      name: tagName(tag),
      attrs: tagAttrs(tag),
      start: firstLine(tag),
      end: lastLine(tag),
      children: [],
      parent: stack[stack.length - 1] ?? null,
      text: '',
    };
    if (!el.name) return;
    (el.parent ? el.parent.children : roots).push(el);
    if (!empty) stack.push(el);
  };
  const close = (name: string, line: number) => {
    let k = stack.length - 1;
    while (k >= 0 && stack[k].name !== name) k--;
    if (k < 0) return; // a stray end tag: nothing to close
    for (let i = stack.length - 1; i > k; i--) stack[i].end = lastEnd(stack[i], stack[i].end);
    stack[k].end = Math.max(stack[k].end, line);
    stack.length = k;
  };
  // Document-order walk over the element structure (iterative: deep documents must not overflow).
  const work: LiteNode[] = [lite];
  while (work.length) {
    const n = work.pop()!;
    if (TAG_TYPES.has(n.type)) {
      if (n.type === 'ETag') close(tagName(n), lastLine(n));
      else open(n, n.type === 'EmptyElemTag');
      continue;
    }
    if (n.type === 'CharData' || n.type === 'CDSect') {
      const top = stack[stack.length - 1];
      const t = (n.text ?? '').trim();
      if (top && t && top.text.length < MAX_TEXT) top.text = (top.text ? `${top.text} ${t}` : t).slice(0, MAX_TEXT);
      continue;
    }
    const ch = n.children;
    // Inside error nodes an end tag can appear as a bare `</` token followed by its Name.
    for (let i = ch.length - 1; i >= 0; i--) {
      const c = ch[i];
      if (!c.named && c.type === '</' && ch[i + 1]?.type === 'Name') {
        work.push({ ...ch[i + 1], type: 'ETag', children: [ch[i + 1]], startRow: c.startRow });
        continue;
      }
      if (c.named) work.push(c);
    }
  }
  const lastRow = text.split('\n').length;
  for (let i = stack.length - 1; i >= 0; i--) stack[i].end = Math.max(lastEnd(stack[i], stack[i].end), i === 0 ? lastRow : 0);
  if (roots.length === 0) return null;
  return { roots, broken };
}

/** Element path from the root: `Window > DockPanel > Grid`. */
export function elementPath(el: XElement): string {
  const parts: string[] = [];
  for (let e: XElement | null = el; e; e = e.parent) parts.push(e.name);
  return parts.reverse().join(' > ');
}

/** Every element under `el` (not `el` itself) in document order, iteratively. */
export function* descendants(el: XElement): Generator<XElement> {
  const work = [...el.children].reverse();
  while (work.length) {
    const e = work.pop()!;
    yield e;
    for (let i = e.children.length - 1; i >= 0; i--) work.push(e.children[i]);
  }
}

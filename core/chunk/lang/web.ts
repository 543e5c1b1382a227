// Web files: HTML outlines through the html grammar — landmarks (head, body, header, nav, main,
// section, article, aside, footer, form, dialog, template, table), elements with an id, big
// elements with classes, and <script>/<style> blocks (inline ones outlined by the JS/CSS
// extractors, rows kept) — named like selectors (`section#saved-cart`, `main.content`) with facts
// for ids, classes, sources, form actions and field names. CSS/SCSS and JS/TS live in css.ts and
// script.ts; this module also re-exports their extractors for the registry.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import type { TreeSitterHost } from '../treesitter.ts';
import { cssOutline } from './css.ts';
import { Facts, clip, firstLine, lastLine, rollUpFacts, squash, toLite, type LiteNode } from './lite.ts';
import { scriptOutline } from './script.ts';
export { extractCss } from './css.ts';
export { extractScript } from './script.ts';

const LANDMARKS = new Set(['head', 'body', 'header', 'nav', 'main', 'section', 'article', 'aside', 'footer', 'form', 'dialog', 'template', 'table', 'script', 'style']);
const BIG_ELEMENT_LINES = 6;
const ELEMENT_TYPES = new Set(['element', 'script_element', 'style_element']);

interface HAttr {
  name: string;
  value: string;
}

interface HElement {
  tag: string;
  attrs: HAttr[];
  start: number;
  end: number;
  lite: LiteNode;
  children: HElement[];
}

function attrValue(a: LiteNode, src: string): string {
  const v = a.children.find((c) => c.type === 'quoted_attribute_value' || c.type === 'attribute_value');
  if (!v) return '';
  const t = src.slice(v.startIndex, v.endIndex);
  return v.type === 'quoted_attribute_value' ? t.slice(1, -1) : t;
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);

function tagOf(tag: LiteNode, src: string): { name: string; attrs: HAttr[] } | null {
  const nameNode = tag.children.find((c) => c.type === 'tag_name' || c.type === 'erroneous_end_tag_name');
  if (!nameNode) return null;
  const attrs: HAttr[] = [];
  for (const a of tag.children) {
    if (a.type !== 'attribute') continue;
    const name = a.children.find((c) => c.type === 'attribute_name');
    if (name) attrs.push({ name: src.slice(name.startIndex, name.endIndex).toLowerCase(), value: attrValue(a, src) });
  }
  return { name: src.slice(nameNode.startIndex, nameNode.endIndex).toLowerCase(), attrs };
}

function toElement(n: LiteNode, src: string): HElement | null {
  const tag = n.children.find((c) => c.type === 'start_tag' || c.type === 'self_closing_tag');
  const t = tag ? tagOf(tag, src) : null;
  if (!t) return null;
  return { tag: t.name, attrs: t.attrs, start: firstLine(n), end: lastLine(n), lite: n, children: elementsIn(n, src) };
}

/**
 * Inside an error node the grammar leaves loose start and end tags: rebuild their elements with a
 * stack (void elements never open; an end tag closes up to its match; the rest close at the end).
 */
function fromError(err: LiteNode, src: string): HElement[] {
  const roots: HElement[] = [];
  const stack: HElement[] = [];
  const add = (el: HElement) => (stack.length ? stack[stack.length - 1].children : roots).push(el);
  const closeTo = (k: number, line: number) => {
    while (stack.length > k) {
      const el = stack.pop()!;
      el.end = Math.max(el.start, stack.length === k ? line : Math.max(line - 1, ...el.children.map((c) => c.end)));
    }
  };
  for (const c of err.children) {
    if (ELEMENT_TYPES.has(c.type)) {
      const el = toElement(c, src);
      if (el) add(el);
    } else if (c.type === 'start_tag' || c.type === 'self_closing_tag') {
      const t = tagOf(c, src);
      if (!t) continue;
      const el: HElement = { tag: t.name, attrs: t.attrs, start: firstLine(c), end: lastLine(c), lite: c, children: [] };
      add(el);
      if (c.type === 'start_tag' && !VOID.has(t.name)) stack.push(el);
    } else if (c.type === 'end_tag' || c.type === 'erroneous_end_tag') {
      const t = tagOf(c, src);
      let k = stack.length - 1;
      while (k >= 0 && stack[k].tag !== t?.name) k--;
      if (k >= 0) closeTo(k, lastLine(c));
    } else if (c.type === 'ERROR') {
      for (const el of fromError(c, src)) add(el);
    }
  }
  closeTo(0, lastLine(err));
  return roots;
}

/** Child elements, looking through error nodes (stray `@` constructs, unclosed tags). */
function elementsIn(n: LiteNode, src: string): HElement[] {
  const out: HElement[] = [];
  for (const c of n.children) {
    if (ELEMENT_TYPES.has(c.type)) {
      const el = toElement(c, src);
      if (el) out.push(el);
    } else if (c.type === 'ERROR') out.push(...fromError(c, src));
  }
  return out;
}

function get(el: HElement, name: string): string | undefined {
  return el.attrs.find((a) => a.name === name)?.value;
}

function selectorName(el: HElement): string {
  let name = el.tag;
  const id = get(el, 'id');
  if (id) name += `#${squash(id)}`;
  const cls = get(el, 'class');
  if (cls && !/[{}@]/.test(cls)) name += squash(cls).split(' ').slice(0, 4).map((c) => `.${c}`).join('');
  if (el.tag === 'script' && get(el, 'src')) name += ` ${get(el, 'src')}`;
  return clip(name);
}

function ownFacts(el: HElement, facts: Facts): void {
  for (const a of el.attrs) {
    const v = squash(a.value);
    if (!v) continue;
    if (a.name === 'id') facts.add(`id=${v}`);
    else if (a.name === 'class') facts.add(`class=${v}`);
    else if (a.name === 'src' || (a.name === 'href' && el.tag === 'link')) facts.add(`${a.name}=${v}`);
    else if (a.name === 'action' || a.name === 'method') facts.add(`${a.name}=${v}`);
    else if (a.name === 'name' && ['input', 'select', 'textarea', 'button', 'form', 'meta'].includes(el.tag)) facts.add(`name=${v}`);
    else if (a.name === 'role' || a.name === 'aria-label') facts.add(`${a.name}=${v}`);
  }
}

function subtreeFacts(el: HElement, max = 40): string[] | undefined {
  const facts = new Facts(max);
  const work = [el];
  while (work.length && !facts.full) {
    const e = work.shift()!;
    ownFacts(e, facts);
    work.push(...e.children);
  }
  return facts.result();
}

function isNode(el: HElement): boolean {
  if (LANDMARKS.has(el.tag) || get(el, 'id')) return true;
  return !!get(el, 'class') && el.children.length > 0 && el.end - el.start + 1 >= BIG_ELEMENT_LINES;
}

/** Rows of `text` before `from` blanked out, so an inline block parses with its file's line numbers. */
function padded(src: string, from: number, to: number): string {
  return src.slice(0, from).replace(/[^\n]/g, ' ') + src.slice(from, to);
}

interface Ctx {
  src: string;
  ts: TreeSitterHost;
}

async function inlineChildren(el: HElement, ctx: Ctx): Promise<OutlineNode[]> {
  const raw = el.lite.children.find((c) => c.type === 'raw_text');
  if (!raw) return [];
  try {
    if (el.tag === 'script') {
      const type = get(el, 'type') ?? '';
      if (get(el, 'src') || (type && !/javascript|module|^text\/babel$/i.test(type))) return [];
      return await scriptOutline(ctx.ts, 'javascript', padded(ctx.src, raw.startIndex, raw.endIndex));
    }
    return cssOutline(padded(ctx.src, raw.startIndex, raw.endIndex), false);
  } catch {
    return []; // an inline block the grammar cannot take still leaves its element in the outline
  }
}

async function collect(elements: HElement[], path: string[], ctx: Ctx): Promise<OutlineNode[]> {
  const out: OutlineNode[] = [];
  for (const el of elements) {
    if (!isNode(el)) {
      out.push(...(await collect(el.children, path, ctx)));
      continue;
    }
    const name = selectorName(el);
    const here = [...path, name];
    const inline = el.tag === 'script' || el.tag === 'style' ? await inlineChildren(el, ctx) : [];
    const children = [...(await collect(el.children, here, ctx)), ...inline]
      .filter((c) => c.startLine >= el.start && c.endLine <= el.end)
      .sort((a, b) => a.startLine - b.startLine);
    const facts = subtreeFacts(el);
    out.push({
      kind: el.tag === 'script' || el.tag === 'style' ? el.tag : 'element',
      name,
      startLine: el.start,
      endLine: el.end,
      role: children.length ? 'container' : 'unit',
      ...(children.length ? { context: here.join(' > ') } : {}),
      ...(facts ? { facts } : {}),
      children,
    });
  }
  return out;
}

export async function extractHtml(input: ChunkInput, ts: TreeSitterHost): Promise<FileOutline | null> {
  const tree = await ts.parse('html', input.text);
  let root: LiteNode;
  try {
    root = toLite(tree, input.text, { anonymous: false, descend: (t) => t !== 'raw_text' && t !== 'text' && t !== 'comment' && t !== 'attribute_value' });
  } finally {
    tree.delete();
  }
  const ctx: Ctx = { src: input.text, ts };
  const nodes = await collect(elementsIn(root, input.text), [], ctx);
  rollUpFacts(nodes);
  const title = findTitle(elementsIn(root, input.text), input.text);
  return nodes.length ? { nodes, ...(title ? { fileContext: [`title=${title}`] } : {}) } : null;
}

function findTitle(elements: HElement[], src: string): string | null {
  const work = [...elements];
  while (work.length) {
    const e = work.shift()!;
    if (e.tag === 'title') {
      const text = e.lite.children.find((c) => c.type === 'text');
      return text ? clip(squash(src.slice(text.startIndex, text.endIndex)), 120) : null;
    }
    if (e.tag === 'html' || e.tag === 'head') work.push(...e.children);
  }
  return null;
}

// XML documents for the XAML, MSBuild and .slnx extractors: tokenizes with htmlparser2's XML-mode
// Tokenizer (a linear scan, ~30x faster than the tree-sitter xml grammar it replaced on AXAML, the
// biggest share of a cold pass's parsing on Avalonia repositories) and rebuilds the element tree from
// its tags with a stack, so a broken document (an unclosed element, a stray end tag, a bad attribute)
// still yields every element the tokenizer could see — a partial tree, never a crash. Owns XML
// structure only; what an element means is each extractor's business.
import { QuoteType, Tokenizer } from 'htmlparser2';
import { lineAt, lineStarts } from '../../scan/content.ts';

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

const MAX_TEXT = 400;
/** An entity or character reference: it splits character data into pieces, as the XML grammar's Reference does. */
const REFERENCE = /&(?:#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_:][\w.:-]*);/;

/** Parses an XML document into elements; null when the tokenizer finds no element at all. */
export function parseXml(text: string): XDocument | null {
  const starts = lineStarts(text);
  const line = (offset: number) => lineAt(starts, offset);
  const roots: XElement[] = [];
  const stack: XElement[] = [];
  let broken = false;
  // The start tag being read: its element (attached when the tag ends) and the attribute being read.
  let tag: XElement | null = null;
  let attrName = '';
  let attrLine = 0;
  let attrValue = '';
  const lastEnd = (el: XElement, floor: number) => Math.max(floor, el.start, ...el.children.slice(-1).map((c) => c.end));
  const endTag = (at: number, empty: boolean) => {
    const el = tag;
    tag = null;
    if (!el) return;
    el.end = line(at);
    (el.parent ? el.parent.children : roots).push(el);
    if (!empty) stack.push(el);
  };
  const close = (name: string, endLine: number) => {
    let k = stack.length - 1;
    while (k >= 0 && stack[k].name !== name) k--;
    broken ||= k !== stack.length - 1;
    if (k < 0) return; // a stray end tag: nothing to close
    for (let i = stack.length - 1; i > k; i--) stack[i].end = lastEnd(stack[i], stack[i].end);
    stack[k].end = Math.max(stack[k].end, endLine);
    stack.length = k;
  };
  const addText = (t: string) => {
    const top = stack[stack.length - 1];
    if (top && t && top.text.length < MAX_TEXT) top.text = (top.text ? `${top.text} ${t}` : t).slice(0, MAX_TEXT);
  };
  const tokenizer = new Tokenizer(
    { xmlMode: true, decodeEntities: false },
    {
      onopentagname(start, end) {
        if (tag) broken = true; // a start tag that never ended: `<a <b>`
        // The element starts at its `<`, one before its name.
        tag = { name: text.slice(start, end), attrs: [], start: line(start - 1), end: 0, children: [], parent: stack[stack.length - 1] ?? null, text: '' };
      },
      onattribname(start, end) {
        attrName = text.slice(start, end);
        attrLine = line(start);
        attrValue = '';
      },
      onattribdata(start, end) {
        attrValue += text.slice(start, end);
      },
      onattribend(quote) {
        if (quote === QuoteType.NoValue || quote === QuoteType.Unquoted) broken = true;
        if (tag && attrName && quote !== QuoteType.NoValue) tag.attrs.push({ name: attrName, value: decodeXml(attrValue), line: attrLine });
        attrName = '';
      },
      onopentagend(end) {
        endTag(end, false);
      },
      onselfclosingtag(end) {
        endTag(end, true);
      },
      onclosetag(start, end) {
        close(text.slice(start, end), line(end));
      },
      ontext(start, end) {
        for (const piece of text.slice(start, end).split(REFERENCE)) addText(piece.trim());
      },
      oncdata(start, end, endOffset) {
        // The whole section, as the grammar's CDSect node held it: `<![CDATA[` … `]]>` (`end` is at
        // its final `>` when it is closed: endOffset 2; at the end of the text when it is not: 0).
        addText(text.slice(start - '<![CDATA['.length, endOffset ? end + 1 : end).trim());
      },
      onattribentity() {},
      ontextentity() {},
      oncomment() {},
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(text);
  tokenizer.end();
  if (tag) broken = true; // the text ends inside a start tag: that element is lost, as a parser would lose it
  broken ||= stack.length > 0;
  // The text is chunkInput's (lines joined with '\n'): its last line is the number of line starts.
  for (let i = stack.length - 1; i >= 0; i--) stack[i].end = Math.max(lastEnd(stack[i], stack[i].end), i === 0 ? starts.length : 0);
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

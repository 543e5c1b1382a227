// CSS / SCSS outlines: rule sets named by their selectors (SCSS and native CSS nesting resolved,
// `&__title` under `.card` → `.card__title`), `@media`/`@supports`/`@container`/`@layer` as
// containers of their rules, `@keyframes`, `@font-face`, imports, and SCSS mixins, functions,
// placeholders and top-level variables. Tiny consecutive rules are packed by the chunk builder.
//
// A brace scanner rather than the css/scss grammars: the scss grammar available as WASM predates
// module members (`t.$space`) and misreads `@extend %placeholder`, and its error recovery then
// swallows the whole enclosing rule set. Style sheets are blocks of `prelude { … }` and `…;`
// statements; the scanner skips strings, comments, `#{…}` interpolation and parentheses, is
// linear, and degrades to a partial outline on broken input.
import type { ChunkInput } from '../input.ts';
import type { FileOutline, OutlineNode } from '../outline.ts';
import { clip, squash } from './lite.ts';

const MAX_SELECTORS = 24;
const MAX_DEPTH = 64;
const GROUPING: Record<string, string> = { '@media': 'media', '@supports': 'supports', '@container': 'container', '@layer': 'layer', '@scope': 'scope', '@document': 'document', '@starting-style': 'at-rule' };
const CONTROL = new Set(['@each', '@for', '@if', '@else', '@while']);
const IMPORTS = new Set(['@import', '@use', '@forward', '@charset', '@namespace']);

/** Splits a selector list at top-level commas (not inside parentheses or brackets). */
function splitSelectors(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of s) {
    if (ch === '(' || ch === '[') depth++;
    else if (ch === ')' || ch === ']') depth--;
    else if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

/** Nesting: each child selector against each parent one (`&` is the parent). */
export function resolveSelectors(parents: string[] | null, own: string[]): string[] {
  if (!parents || !parents.length) return own.slice(0, MAX_SELECTORS);
  const out: string[] = [];
  for (const p of parents) {
    for (const s of own) {
      out.push(s.includes('&') ? s.replace(/&/g, p) : `${p} ${s}`);
      if (out.length >= MAX_SELECTORS) return out;
    }
  }
  return out;
}

class Scanner {
  i = 0;
  private readonly starts: number[] = [0];

  constructor(
    readonly src: string,
    readonly scss: boolean,
  ) {
    for (let k = src.indexOf('\n'); k >= 0; k = src.indexOf('\n', k + 1)) this.starts.push(k + 1);
  }

  /** 1-based line of an offset. */
  lineAt(index: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  /** Skips whitespace and comments. */
  skipSpace(): void {
    const s = this.src;
    while (this.i < s.length) {
      const c = s.charCodeAt(this.i);
      if (c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 0xfeff) this.i++;
      else if (c === 47 && s.charCodeAt(this.i + 1) === 42) {
        const j = s.indexOf('*/', this.i + 2);
        this.i = j < 0 ? s.length : j + 2;
      } else if (this.scss && c === 47 && s.charCodeAt(this.i + 1) === 47) {
        const j = s.indexOf('\n', this.i);
        this.i = j < 0 ? s.length : j;
      } else break;
    }
  }

  /**
   * Reads up to the next top-level `{`, `;` or `}` (not consuming it), skipping strings, comments,
   * interpolation and bracketed text. Returns the stop character ('' at the end of input).
   */
  readPrelude(): string {
    const s = this.src;
    let paren = 0;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"' || c === "'") {
        this.i++;
        while (this.i < s.length && s[this.i] !== c && s[this.i] !== '\n') this.i += s[this.i] === '\\' ? 2 : 1;
        this.i++;
      } else if (c === '/' && s[this.i + 1] === '*') {
        const j = s.indexOf('*/', this.i + 2);
        this.i = j < 0 ? s.length : j + 2;
      } else if (this.scss && c === '/' && s[this.i + 1] === '/' && s[this.i - 1] !== ':') {
        const j = s.indexOf('\n', this.i);
        this.i = j < 0 ? s.length : j;
      } else if (c === '#' && s[this.i + 1] === '{') {
        this.skipBalanced('{', '}', this.i + 1);
      } else if (c === '(' || c === '[') {
        paren++;
        this.i++;
      } else if ((c === ')' || c === ']') && paren > 0) {
        paren--;
        this.i++;
      } else if (paren === 0 && (c === '{' || c === ';' || c === '}')) {
        return c;
      } else this.i++;
    }
    return '';
  }

  /** From an opening bracket at `at`, moves past its match (strings skipped). */
  skipBalanced(open: string, close: string, at: number): void {
    const s = this.src;
    let depth = 0;
    this.i = at;
    while (this.i < s.length) {
      const c = s[this.i];
      if (c === '"' || c === "'") {
        this.i++;
        while (this.i < s.length && s[this.i] !== c && s[this.i] !== '\n') this.i += s[this.i] === '\\' ? 2 : 1;
      } else if (c === open) depth++;
      else if (c === close && --depth === 0) {
        this.i++;
        return;
      }
      this.i++;
    }
  }

  cleanPrelude(from: number, to: number): string {
    let t = this.src.slice(from, to).replace(/\/\*[\s\S]*?\*\//g, ' ');
    if (this.scss) t = t.replace(/(^|[^:])\/\/[^\n]*/g, '$1');
    return squash(t);
  }
}

function atName(prelude: string): string {
  const m = /^@[\w-]+/.exec(prelude);
  return m ? m[0].toLowerCase() : '';
}

/** Parses block contents until the closing `}` (consumed) or the end of input. */
function block(sc: Scanner, parents: string[] | null, depth: number, out: OutlineNode[]): void {
  const s = sc.src;
  for (;;) {
    sc.skipSpace();
    if (sc.i >= s.length) return;
    if (s[sc.i] === '}') {
      sc.i++;
      return;
    }
    const start = sc.i;
    const stop = sc.readPrelude();
    const prelude = sc.cleanPrelude(start, sc.i);
    const startLine = sc.lineAt(start);
    if (stop === ';' || stop === '' || stop === '}') {
      if (stop === ';') sc.i++;
      if (!parents && prelude) {
        const at = atName(prelude);
        if (IMPORTS.has(at)) out.push(unit('import', prelude, startLine, sc.lineAt(Math.max(start, sc.i - 1))));
        else if (sc.scss && /^\$[\w-]+\s*:/.test(prelude)) out.push(unit('variable', prelude.slice(0, prelude.indexOf(':')).trim(), startLine, sc.lineAt(Math.max(start, sc.i - 1))));
      }
      if (stop === '') return;
      continue;
    }
    // stop === '{': a nested block.
    sc.i++;
    const children: OutlineNode[] = [];
    const at = atName(prelude);
    let node: OutlineNode | null = null;
    const inner = (p: string[] | null) => (depth < MAX_DEPTH ? block(sc, p, depth + 1, children) : sc.skipBalanced('{', '}', sc.i - 1));
    if (at) {
      if (GROUPING[at]) {
        inner(parents);
        node = group(GROUPING[at], prelude, parents, children);
      } else if (CONTROL.has(at)) {
        inner(parents);
        node = group('control', prelude, parents, children);
      } else {
        // @keyframes, @font-face, @mixin, @function, @page, @include with a content block …: one unit.
        inner(parents);
        if (at === '@include' || at === '@extend') node = null;
        else if (at === '@mixin' || at === '@function') node = unit(at.slice(1), `${at} ${/^@[\w-]+\s+([\w-]+)/.exec(prelude)?.[1] ?? ''}`.trim(), startLine, 0);
        else node = unit(/keyframes$/.test(at) ? 'keyframes' : 'at-rule', prelude, startLine, 0);
        children.length = 0;
      }
    } else if (/:$/.test(prelude) && sc.scss) {
      // SCSS nested property (`font: { family: … }`): part of its rule, not a rule.
      inner(null);
      children.length = 0;
    } else {
      const own = splitSelectors(prelude);
      const resolved = resolveSelectors(parents, own);
      inner(resolved);
      const name = resolved.join(', ');
      node = group(prelude.startsWith('%') ? 'placeholder' : 'rule', name, null, children);
    }
    if (node) {
      node.startLine = startLine;
      node.endLine = Math.max(startLine, sc.lineAt(Math.max(start, sc.i - 1)));
      out.push(node);
    } else out.push(...children);
  }
}

function unit(kind: string, name: string, start: number, end: number): OutlineNode {
  return { kind, name: clip(name), startLine: start, endLine: Math.max(start, end), role: 'unit', children: [] };
}

function group(kind: string, name: string, parents: string[] | null, children: OutlineNode[]): OutlineNode {
  const context = parents ? `${parents.join(', ')} ${name}` : name;
  return children.length
    ? { kind, name: clip(name), startLine: 0, endLine: 0, role: 'container', context: clip(context, 200), children }
    : { kind, name: clip(name), startLine: 0, endLine: 0, role: 'unit', children };
}

/** Outline of style sheet source (a file, or an inline <style> whose rows were kept by padding). */
export function cssOutline(text: string, scss: boolean): OutlineNode[] {
  const sc = new Scanner(text, scss);
  const out: OutlineNode[] = [];
  // A stray `}` at the top level ends `block` early: keep going until the input is used up.
  while (sc.i < text.length) block(sc, null, 0, out);
  return out;
}

export async function extractCss(input: ChunkInput): Promise<FileOutline | null> {
  const nodes = cssOutline(input.text, input.lang === 'scss');
  // Style sheets are many small rules: pack rules under 15 lines into chunks of up to 40.
  return nodes.length ? { nodes, pack: { belowLines: 15, packLines: 40 } } : null;
}

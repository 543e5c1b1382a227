// Razor block splitter (no Razor grammar exists for tree-sitter on npm): finds a .razor/.cshtml
// file's directives, `@code { … }` / `@functions { … }` blocks and the markup between them.
// Brace matching inside code blocks is a small C# lexer that skips comments, char literals and
// every string form (regular, verbatim, interpolated with nested holes, raw, interpolated raw).
// Pure text processing: no parser, no platform API.

/** Directive keywords that take the rest of their line (`@using (…) {` is a statement, not a directive). */
export const RAZOR_DIRECTIVES = new Set([
  'page', 'inject', 'using', 'inherits', 'layout', 'attribute', 'implements', 'typeparam', 'rendermode',
  'model', 'namespace', 'preservewhitespace', 'addTagHelper', 'removeTagHelper', 'tagHelperPrefix',
]);

export interface RazorDirective {
  keyword: string;
  /** The rest of the line, trimmed. */
  value: string;
  /** 1-based. */
  line: number;
}

export interface RazorCodeBlock {
  keyword: 'code' | 'functions';
  /** 1-based line of the `@code` keyword. */
  startLine: number;
  /** 1-based line of the closing brace (the last line of the file when unclosed). */
  endLine: number;
  /** 1-based line of the opening brace. */
  openLine: number;
  /** Offsets of the body: after `{` up to (not including) the closing `}`. */
  bodyStart: number;
  bodyEnd: number;
  closed: boolean;
}

export interface RazorRegion {
  kind: 'directives' | 'markup' | 'code';
  /** 1-based, inclusive; directive and markup regions are trimmed of blank edge lines. */
  startLine: number;
  endLine: number;
  /** For `directives`: the directives in the region. */
  directives?: RazorDirective[];
  /** For `code`: the block. */
  block?: RazorCodeBlock;
}

export interface RazorSplit {
  directives: RazorDirective[];
  codeBlocks: RazorCodeBlock[];
  /** Every non-blank line belongs to exactly one region; regions are in file order. */
  regions: RazorRegion[];
}

const DIRECTIVE_AT = /@([A-Za-z]+)\b/y;
const CHAR_LITERAL = /'(?:\\(?:u[0-9A-Fa-f]{4}|U[0-9A-Fa-f]{8}|x[0-9A-Fa-f]{1,4}|[^\n])|[^\\'\n])'/y;

/**
 * Scans C# from `i` and returns the offset of the `}` that closes the current brace level, or -1
 * when the text ends first. Skips comments (`//`, `/* *\/`, Razor `@* *@`), char literals and strings.
 */
export function findClosingBrace(text: string, i: number): number {
  const n = text.length;
  let depth = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    switch (c) {
      case 0x2f /* / */: {
        const d = text.charCodeAt(i + 1);
        if (d === 0x2f) {
          const e = text.indexOf('\n', i + 2);
          i = e < 0 ? n : e;
          continue;
        }
        if (d === 0x2a) {
          const e = text.indexOf('*/', i + 2);
          i = e < 0 ? n : e + 2;
          continue;
        }
        break;
      }
      case 0x40 /* @ */: {
        const d = text.charCodeAt(i + 1);
        if (d === 0x2a) {
          const e = text.indexOf('*@', i + 2);
          i = e < 0 ? n : e + 2;
          continue;
        }
        if (d === 0x22 || d === 0x24) {
          i = skipString(text, i);
          continue;
        }
        break;
      }
      case 0x24 /* $ */:
      case 0x22 /* " */: {
        const after = skipString(text, i);
        if (after > i) {
          i = after;
          continue;
        }
        break;
      }
      case 0x27 /* ' */: {
        CHAR_LITERAL.lastIndex = i;
        if (CHAR_LITERAL.test(text)) {
          i = CHAR_LITERAL.lastIndex;
          continue;
        }
        break;
      }
      case 0x7b /* { */:
        depth++;
        break;
      case 0x7d /* } */:
        if (depth === 0) return i;
        depth--;
        break;
    }
    i++;
  }
  return -1;
}

/**
 * If a string literal starts at `i` (optionally prefixed by `$`s and/or `@`), returns the offset
 * just past it (the text's end when unterminated); otherwise returns `i`.
 */
export function skipString(text: string, i: number): number {
  const n = text.length;
  let j = i;
  let dollars = 0;
  let verbatim = false;
  while (j < n && (text[j] === '$' || text[j] === '@')) {
    if (text[j] === '$') dollars++;
    else verbatim = true;
    j++;
  }
  if (text[j] !== '"' || (verbatim && j - i > 1 && dollars === 0)) return i;
  let quotes = 0;
  while (text[j + quotes] === '"') quotes++;
  if (!verbatim && quotes >= 3) return skipRaw(text, j + quotes, quotes, dollars);
  if (!verbatim && quotes === 2) return j + 2; // "" (empty string)
  j++;
  while (j < n) {
    const c = text[j];
    if (c === '"') {
      if (verbatim && text[j + 1] === '"') {
        j += 2;
        continue;
      }
      return j + 1;
    }
    if (c === '\\' && !verbatim) {
      j += 2;
      continue;
    }
    if (c === '\n' && !verbatim) return j; // unterminated regular string: stop at the line end
    if (dollars > 0 && c === '{') {
      if (text[j + 1] === '{') {
        j += 2;
        continue;
      }
      const close = findClosingBrace(text, j + 1);
      if (close < 0) return n;
      j = close + 1;
      continue;
    }
    j++;
  }
  return n;
}

/** Raw string content from `j` until `quotes` quotes in a row; `{`×dollars opens a hole. */
function skipRaw(text: string, j: number, quotes: number, dollars: number): number {
  const n = text.length;
  const closer = '"'.repeat(quotes);
  while (j < n) {
    if (text[j] === '"' && text.startsWith(closer, j)) {
      let k = j + quotes;
      while (text[k] === '"') k++; // extra quotes belong to the content (the compiler rejects it anyway)
      return k;
    }
    if (dollars > 0 && text[j] === '{') {
      let run = 0;
      while (text[j + run] === '{') run++;
      if (run >= dollars) {
        const close = findClosingBrace(text, j + run);
        if (close < 0) return n;
        j = close;
        let k = 0;
        while (k < dollars && text[j] === '}') {
          j++;
          k++;
        }
        continue;
      }
      j += run;
      continue;
    }
    j++;
  }
  return n;
}

/** 1-based line of each offset, via a precomputed table of line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  get count(): number {
    return this.starts.length;
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  startOf(line: number): number {
    return this.starts[line - 1] ?? Number.MAX_SAFE_INTEGER;
  }
}

/**
 * Splits a Razor file into directive regions, markup regions and code blocks. Never throws; an
 * unclosed code block runs to the end of the file.
 */
export function splitRazor(text: string): RazorSplit {
  const idx = new LineIndex(text);
  const total = text === '' ? 0 : idx.count;
  const directives: RazorDirective[] = [];
  const codeBlocks: RazorCodeBlock[] = [];
  /** Per line: 'd' directive, 'c' code, 'm' markup, ' ' blank, '*' Razor comment only. */
  const role: string[] = new Array(total + 1).fill('m');
  let line = 1;
  while (line <= total) {
    const ls = idx.startOf(line);
    const le = line < total ? idx.startOf(line + 1) - 1 : text.length;
    const raw = text.slice(ls, le);
    const ws = raw.length - raw.trimStart().length;
    const at = ls + ws;
    if (raw.trim() === '') {
      role[line] = ' ';
      line++;
      continue;
    }
    if (text.startsWith('@*', at)) {
      const e = text.indexOf('*@', at + 2);
      const endLine = e < 0 ? total : idx.lineOf(e);
      const rest = e < 0 ? '' : text.slice(e + 2, endLine < total ? idx.startOf(endLine + 1) - 1 : text.length);
      for (let l = line; l <= endLine; l++) role[l] = rest.trim() === '' ? '*' : 'm';
      line = endLine + 1;
      continue;
    }
    if (text[at] === '@') {
      DIRECTIVE_AT.lastIndex = at;
      const m = DIRECTIVE_AT.exec(text);
      const kw = m?.[1] ?? '';
      if (kw === 'code' || kw === 'functions') {
        let j = at + 1 + kw.length;
        while (j < text.length && /\s/.test(text[j])) j++;
        if (text[j] === '{') {
          const close = findClosingBrace(text, j + 1);
          const endLine = close < 0 ? total : idx.lineOf(close);
          codeBlocks.push({
            keyword: kw,
            startLine: line,
            endLine,
            openLine: idx.lineOf(j),
            bodyStart: j + 1,
            bodyEnd: close < 0 ? text.length : close,
            closed: close >= 0,
          });
          for (let l = line; l <= endLine; l++) role[l] = 'c';
          line = endLine + 1;
          continue;
        }
      } else if (RAZOR_DIRECTIVES.has(kw)) {
        const value = raw.slice(ws + 1 + kw.length).trim();
        if (!(kw === 'using' && (value.startsWith('(') || value === ''))) {
          directives.push({ keyword: kw, value: value.replace(/;$/, '').trim(), line });
          role[line] = 'd';
          line++;
          continue;
        }
      }
    }
    // Markup: a Razor comment opened on this line may run over the following lines.
    const open = raw.indexOf('@*');
    if (open >= 0 && raw.indexOf('*@', open + 2) < 0) {
      const e = text.indexOf('*@', ls + open + 2);
      const endLine = e < 0 ? total : idx.lineOf(e);
      for (let l = line; l <= endLine; l++) role[l] = 'm';
      line = endLine + 1;
      continue;
    }
    line++;
  }

  // Regions: directives (blank and comment-only lines inside a run of directives join it), markup, code.
  const regions: RazorRegion[] = [];
  const kindOf = (r: string): RazorRegion['kind'] | null => (r === 'd' ? 'directives' : r === 'c' ? 'code' : r === 'm' ? 'markup' : null);
  let blockIdx = 0;
  let dirIdx = 0;
  for (let l = 1; l <= total; ) {
    const k = kindOf(role[l]);
    if (!k) {
      l++;
      continue;
    }
    if (k === 'code') {
      const block = codeBlocks[blockIdx++];
      regions.push({ kind: 'code', startLine: block.startLine, endLine: block.endLine, block });
      l = block.endLine + 1;
      continue;
    }
    let end = l;
    let m = l + 1;
    for (; m <= total; m++) {
      const km = kindOf(role[m]);
      if (km === k) end = m;
      else if (km !== null) break;
      else if (k === 'markup' && role[m] === '*') end = m; // comments inside markup stay in it
    }
    const region: RazorRegion = { kind: k, startLine: l, endLine: end };
    if (k === 'directives') {
      const list: RazorDirective[] = [];
      while (dirIdx < directives.length && directives[dirIdx].line <= end) list.push(directives[dirIdx++]);
      region.directives = list;
    }
    regions.push(region);
    l = end + 1;
  }
  return { directives, codeBlocks, regions };
}

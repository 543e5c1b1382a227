// Member bodies a C# parse can leave out. The outline (csharp.ts) needs namespaces, types and member
// headers, never what is inside a method's, constructor's, operator's or accessor's braces — about
// half of a C# file's text, and of tree-sitter's work (AvaloniaUI/Avalonia, 4,076 files:
// bench/results/csharp-bodies-avalonia-cold14.md). A scan of the text (comments, strings of every
// kind, interpolation holes, char literals, preprocessor lines) finds the braces directly inside a
// type body that follow `)` (a method, constructor, operator or local-function header), and inside a
// property's, indexer's or event's braces those that follow get/set/init/add/remove (a generic
// method's `where` clauses may stand between its `)` and its body), and returns the
// text's ranges around their insides: tree-sitter parses those ranges only (included ranges), and
// sees `{}` where a body was. Offsets, rows and columns stay the file's own.
// Conservative by construction: null (parse everything) for a file with a conditional directive
// (`#if` branches may each open a brace), a string or comment left open, or braces that do not
// pair; a header holding a type keyword before a name (`class Foo(int x) {`, primary constructors)
// or a C# 14 `extension(…)` block is a container, never a body. What to do with the tree (and when a
// parse of the ranges met an error) is csharp.ts's; this module only reads text.
import { lineAt, lineStarts } from '../../scan/content.ts';

/** A range of the text to parse, as tree-sitter takes it (UTF-16 offsets; rows and columns 0-based). */
export interface TextRange {
  startIndex: number;
  endIndex: number;
  startPosition: { row: number; column: number };
  endPosition: { row: number; column: number };
}

const TYPE_WORDS = new Set(['class', 'struct', 'interface', 'enum', 'record']);
const ACCESSOR_WORDS = new Set(['get', 'set', 'init', 'add', 'remove']);

/** Brace kinds: the file or a namespace, a type body, a member's braces (accessors), a skipped body, anything else. */
const enum Kind {
  Root,
  Namespace,
  Type,
  Members,
  Body,
  Other,
}

const isWordCode = (c: number) => (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c >= 128;

/**
 * The ranges of `text` (lines joined with \n, as the chunker's input) to parse when member bodies are
 * left out (see the header), or null when nothing is left out or the text is not one this scan reads
 * with certainty.
 */
export function memberBodyRanges(text: string): TextRange[] | null {
  if (/^[ \t]*#[ \t]*(?:if|elif|else|endif)\b/m.test(text)) return null;
  const n = text.length;
  const stack: Kind[] = [];
  /** Inside of each skipped body: [after its `{`, at its `}`). */
  const skipped: number[] = [];
  let bodyOpen = -1; // stack depth of the open skipped body (-1: none)
  // The header since the last `;`, `{` or `}` (only read directly inside types and members).
  let prev = ''; // last significant token: a word or one punctuation character ('' after a reset)
  let typeHeader = false;
  let namespaceHeader = false;
  let extensionHeader = false;
  let constrained = false; // `) where T : …`: a generic method's constraints follow its parameters
  const reset = () => {
    prev = '';
    typeHeader = namespaceHeader = extensionHeader = constrained = false;
  };
  let atLineStart = true;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      atLineStart = true;
      i++;
      continue;
    }
    if (c === 32 || c === 9 || c === 13 || c === 12 || c === 11 || c === 0xfeff) {
      i++;
      continue;
    }
    if (c === 35 /* # */ && atLineStart) {
      // A directive (#region, #pragma, #nullable …; conditionals were ruled out above): its line is not code.
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    atLineStart = false;
    if (c === 47 /* / */ && text.charCodeAt(i + 1) === 47) {
      const nl = text.indexOf('\n', i);
      i = nl < 0 ? n : nl;
      continue;
    }
    if (c === 47 && text.charCodeAt(i + 1) === 42) {
      const end = text.indexOf('*/', i + 2);
      if (end < 0) return null;
      i = end + 2;
      continue;
    }
    if (c === 34 /* " */ || c === 39 /* ' */ || ((c === 36 /* $ */ || c === 64) /* @ */ && isStringStart(text, i))) {
      const end = skipLiteral(text, i);
      if (end < 0) return null;
      i = end;
      if (bodyOpen < 0) prev = '"';
      continue;
    }
    if (isWordCode(c) || c === 64 /* @name */) {
      let j = i + 1;
      while (j < n && isWordCode(text.charCodeAt(j))) j++;
      if (bodyOpen < 0) {
        const word = text.slice(i, j);
        // `class Foo`, `record struct P`: a type keyword before a name (not `where T : class where U …`).
        if (TYPE_WORDS.has(prev) && word !== 'where' && /^[A-Za-z_\u0080-\uffff]/.test(word)) typeHeader = true;
        if (word === 'namespace') namespaceHeader = true;
        if (word === 'where' && prev === ')') constrained = true;
        prev = word;
      }
      i = j;
      continue;
    }
    // Punctuation.
    i++;
    if (c === 123 /* { */) {
      let kind = Kind.Other;
      if (bodyOpen < 0) {
        const parent = stack.length ? stack[stack.length - 1] : Kind.Root;
        if (typeHeader) kind = Kind.Type;
        else if (namespaceHeader) kind = Kind.Namespace;
        else if (parent === Kind.Type) kind = (prev === ')' || constrained) && !extensionHeader ? Kind.Body : Kind.Members;
        else if (parent === Kind.Members && ACCESSOR_WORDS.has(prev)) kind = Kind.Body;
        if (kind === Kind.Body) {
          bodyOpen = stack.length;
          skipped.push(i);
        }
        reset();
      }
      stack.push(kind);
      continue;
    }
    if (c === 125 /* } */) {
      if (!stack.length) return null;
      stack.pop();
      if (bodyOpen === stack.length) {
        bodyOpen = -1;
        skipped.push(i - 1);
      }
      if (bodyOpen < 0) reset();
      continue;
    }
    if (bodyOpen >= 0) continue;
    if (c === 59 /* ; */) {
      reset();
      continue;
    }
    // A C# 14 `extension(…)` / `extension<T>(…)` block holds members: never a body.
    if ((c === 40 /* ( */ || c === 60) /* < */ && prev === 'extension') extensionHeader = true;
    prev = String.fromCharCode(c);
  }
  if (stack.length || bodyOpen >= 0) return null;
  return rangesAround(text, skipped);
}

/** `$"`, `@"`, `$@"`, `@$"`, `$$"""` …: a string's prefix starts here. */
function isStringStart(text: string, i: number): boolean {
  let j = i;
  while (text.charCodeAt(j) === 36 || text.charCodeAt(j) === 64) j++;
  return j > i && text.charCodeAt(j) === 34;
}

/**
 * The index just past the string or char literal starting at `i` (its `$`/`@` prefix included), or
 * -1 when it does not end (the scan then gives up on the file).
 */
function skipLiteral(text: string, i: number): number {
  const n = text.length;
  if (text.charCodeAt(i) === 39) {
    // A char literal: 'x', '\'', '\u0041', '{'.
    let j = i + 1;
    if (text.charCodeAt(j) === 92) j += 2;
    else j += 1;
    while (j < n && j < i + 12 && text.charCodeAt(j) !== 39) j++;
    return text.charCodeAt(j) === 39 ? j + 1 : -1;
  }
  let dollars = 0;
  let verbatim = false;
  let j = i;
  for (;; j++) {
    const c = text.charCodeAt(j);
    if (c === 36) dollars++;
    else if (c === 64) verbatim = true;
    else break;
  }
  // j is at the first quote.
  let quotes = 0;
  while (text.charCodeAt(j + quotes) === 34) quotes++;
  if (quotes >= 3) {
    // A raw string: ends at a run of as many quotes; with `$`×k, k braces open a hole.
    j += quotes;
    const close = '"'.repeat(quotes);
    for (;;) {
      if (j >= n) return -1;
      const c = text.charCodeAt(j);
      if (c === 34 && text.startsWith(close, j)) return j + quotes;
      if (c === 123 && dollars > 0) {
        let run = 0;
        while (text.charCodeAt(j + run) === 123) run++;
        if (run >= dollars) {
          const end = skipHole(text, j + run);
          if (end < 0) return -1;
          // The hole's `}` is consumed; a raw hole closes with as many braces as opened it.
          j = end + dollars - 1;
          continue;
        }
        j += run;
        continue;
      }
      j++;
    }
  }
  if (quotes === 2) return j + 2; // ""
  j++; // past the opening quote
  for (;;) {
    if (j >= n) return -1;
    const c = text.charCodeAt(j);
    if (c === 34) {
      if (verbatim && text.charCodeAt(j + 1) === 34) {
        j += 2;
        continue;
      }
      return j + 1;
    }
    if (c === 92 && !verbatim) {
      j += 2;
      continue;
    }
    if (c === 10 && !verbatim && dollars === 0) return -1;
    if (dollars > 0 && c === 123) {
      if (text.charCodeAt(j + 1) === 123) {
        j += 2;
        continue;
      }
      const end = skipHole(text, j + 1);
      if (end < 0) return -1;
      j = end;
      continue;
    }
    if (dollars > 0 && c === 125 && text.charCodeAt(j + 1) === 125) {
      j += 2;
      continue;
    }
    j++;
  }
}

/** Past the `}` that closes an interpolation hole whose expression starts at `i` (-1 when none does). */
function skipHole(text: string, i: number): number {
  const n = text.length;
  let depth = 0;
  let j = i;
  while (j < n) {
    const c = text.charCodeAt(j);
    if (c === 34 || c === 39 || ((c === 36 || c === 64) && isStringStart(text, j))) {
      const end = skipLiteral(text, j);
      if (end < 0) return -1;
      j = end;
      continue;
    }
    if (c === 47 && text.charCodeAt(j + 1) === 42) {
      const end = text.indexOf('*/', j + 2);
      if (end < 0) return -1;
      j = end + 2;
      continue;
    }
    if (c === 40 || c === 91 || c === 123) depth++;
    else if (c === 41 || c === 93) depth--;
    else if (c === 125) {
      if (depth === 0) return j + 1;
      depth--;
    } else if (c === 58 && text.charCodeAt(j + 1) === 58) {
      j += 2; // `global::`
      continue;
    } else if (c === 58 && depth === 0) {
      // A format specifier runs to the hole's `}`.
      const end = text.indexOf('}', j);
      return end < 0 ? -1 : end + 1;
    }
    j++;
  }
  return -1;
}

/** The ranges between the skipped insides ([after `{`, at `}`) pairs), with rows and columns. */
function rangesAround(text: string, skipped: number[]): TextRange[] | null {
  const cuts: number[] = [];
  for (let k = 0; k < skipped.length; k += 2) {
    // An inside with nothing but blanks is not worth a range boundary.
    if (/\S/.test(text.slice(skipped[k], skipped[k + 1]))) cuts.push(skipped[k], skipped[k + 1]);
  }
  if (!cuts.length) return null;
  const starts = lineStarts(text);
  const point = (index: number) => {
    const row = lineAt(starts, index) - 1;
    return { row, column: index - starts[row] };
  };
  const ranges: TextRange[] = [];
  let from = 0;
  for (let k = 0; k < cuts.length; k += 2) {
    ranges.push({ startIndex: from, endIndex: cuts[k], startPosition: point(from), endPosition: point(cuts[k]) });
    from = cuts[k + 1];
  }
  ranges.push({ startIndex: from, endIndex: text.length, startPosition: point(from), endPosition: point(text.length) });
  return ranges;
}

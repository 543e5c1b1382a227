// Lines that are not live code, by file: commented-out code (`//private void Tear() { }`, markup in
// `<!-- -->`, Razor in `@* *@`, statements in `/* */`), `#if false` / `#if 0` blocks, and regions a
// designer generated (`#region … generated code`). Prose comments and doc comments are live: they
// describe the code next to them and questions match them. Rerank weighs a chunk by how dead the
// lines that hold the query's words are (rerank.ts, setting dead_code_factor). Owns the line classification; where the
// factor goes is rerank.ts's; a session's maps of them, and the record of which files have any, are file-facts.ts's.

import { languageById, type CommentSyntax } from '../languages/table.ts';

/** After the comment marker, code ends a statement or a block: `Tear();`, `{`, `}`. */
const CODE_END = /(?:;|\{|\})$/;
/** … or is a call or a signature: a name right before `(`, the line ending at its `)` (or in `=> …`). */
const CALL = /[\w>\]]\([^()]*(?:\([^()]*\)[^()]*)*\)\s*(?:=>.*)?$/;
/** … or starts with a modifier or statement keyword and holds code punctuation. */
const KEYWORD_START = /^(?:public|private|protected|internal|static|override|virtual|abstract|sealed|readonly|async|await|var|let|const|return|if|else|for|foreach|while|switch|case|throw|try|catch|using|new|class|interface|void|int|bool|string|double|float|object|import|export|function)\b.*[(={<]/;
/** … or is an assignment (`a.b = c`, `x += 1`). */
const ASSIGNMENT = /^[\w.[\]]+\s*[+\-*/]?=\s*[^=\s]/;
/** A line that opens markup or a Razor construct (commented-out markup). */
const MARKUP_START = /^\s*(?:<\/?[A-Za-z][\w.:-]*[\s>/]|@\w)/;

/** Whether the text of a `//` comment (marker removed) is code, not prose (prose may end in `)`: "(the thumb of every slider)"). */
export function looksLikeCode(text: string): boolean {
  const t = text.trim();
  if (!t) return false;
  return CODE_END.test(t) || CALL.test(t) || KEYWORD_START.test(t) || ASSIGNMENT.test(t);
}

/** Commented-out markup, or code. */
const markupOrCode = (text: string): boolean => MARKUP_START.test(text) || looksLikeCode(text);

/** A block comment of a comment syntax: how it opens and closes, and when its text is dead. */
interface BlockComment {
  /** Opens it at the start of a line, unless the line starts with `doc` (a doc comment: live). */
  open: string;
  doc?: string;
  close: string;
  /** Whether the text after the opening marker (up to the close) is code or markup. */
  openDead(text: string): boolean;
  /** Whether a line inside the comment (up to the close) is. */
  innerDead(text: string): boolean;
}

/** Each comment syntax's block comment (the language table's `comments` name them). */
const BLOCK_COMMENTS: Record<CommentSyntax, BlockComment> = {
  c: { open: '/*', doc: '/**', close: '*/', openDead: looksLikeCode, innerDead: (text) => looksLikeCode(text.replace(/^\s*\*?/, '')) },
  markup: { open: '<!--', close: '-->', openDead: (text) => MARKUP_START.test(text), innerDead: markupOrCode },
  razor: { open: '@*', close: '*@', openDead: markupOrCode, innerDead: markupOrCode },
};

/**
 * 1 for each line (0-based) that is dead: commented-out code or markup, inside a `#if false`/`#if 0`
 * block (up to its `#else`, `#elif` or `#endif`), or inside a `#region` whose name says generated.
 */
export function deadLines(lines: readonly string[], lang: string): Uint8Array {
  const dead = new Uint8Array(lines.length);
  // Which comments a language has is its row's (the language table's `comments`).
  const syntax = languageById(lang)?.comments ?? [];
  if (!syntax.length) return dead;
  const cLike = syntax.includes('c');
  const blocks = syntax.map((s) => BLOCK_COMMENTS[s]);
  // #if nesting: each open directive's state (true: dead).
  const ifs: boolean[] = [];
  let regionDepth = 0;
  const regions: boolean[] = [];
  let block: BlockComment | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const t = line.trim();
    if (cLike && t.startsWith('#')) {
      const m = /^#\s*(if|elif|else|endif|region|endregion)\b\s*(.*)$/.exec(t);
      if (m) {
        const arg = m[2].trim();
        if (m[1] === 'if') ifs.push(/^(?:false|0)\b/i.test(arg));
        else if ((m[1] === 'else' || m[1] === 'elif') && ifs.length) ifs[ifs.length - 1] = m[1] === 'elif' ? /^(?:false|0)\b/i.test(arg) : false;
        else if (m[1] === 'endif') ifs.pop();
        else if (m[1] === 'region') {
          regionDepth++;
          regions.push(/generated/i.test(arg));
        } else if (m[1] === 'endregion' && regionDepth) {
          regionDepth--;
          regions.pop();
        }
        continue;
      }
    }
    if (ifs.some(Boolean) || regions.some(Boolean)) {
      dead[i] = 1;
      continue;
    }
    if (block) {
      const at = line.indexOf(block.close);
      if (block.innerDead(at < 0 ? line : line.slice(0, at))) dead[i] = 1;
      if (at >= 0) block = null;
      continue;
    }
    if (cLike && t.startsWith('//') && !t.startsWith('///')) {
      if (looksLikeCode(t.slice(2))) dead[i] = 1;
      continue;
    }
    const opened = blocks.find((b) => t.startsWith(b.open) && !(b.doc && t.startsWith(b.doc)));
    if (opened) {
      const rest = t.slice(opened.open.length);
      const at = rest.indexOf(opened.close);
      if (opened.openDead(at < 0 ? rest : rest.slice(0, at))) dead[i] = 1;
      if (at < 0) block = opened;
    }
  }
  return dead;
}

/** Whether a line of `start`…`end` (1-based, inclusive) is dead (a loop: a subarray view costs more than most chunks' lines). */
function anyDead(dead: Uint8Array, start: number, end: number): boolean {
  for (let i = Math.max(0, start - 1); i < end; i++) if (dead[i]) return true;
  return false;
}

/**
 * How dead the lines `start`…`end` (1-based, inclusive) are for a query: the share of the lines that
 * hold one of `words` (lowercase) which are dead — a chunk whose matches are all commented out is
 * dead for it, a live method with one commented-out line is not — or, when no line holds one (the
 * match was in the path or the symbol), the share of the non-blank lines that are dead.
 */
export function deadShare(dead: Uint8Array, lines: readonly string[], start: number, end: number, words: readonly string[] = []): number {
  // No dead line in the range (most chunks): a share of 0, without reading a line.
  if (!anyDead(dead, start, Math.min(end, lines.length))) return 0;
  let n = 0;
  let d = 0;
  let hitN = 0;
  let hitD = 0;
  for (let l = start; l <= Math.min(end, lines.length); l++) {
    const line = lines[l - 1];
    if (!line?.trim()) continue;
    n++;
    d += dead[l - 1];
    if (words.length) {
      const lower = line.toLowerCase();
      if (words.some((w) => lower.includes(w))) {
        hitN++;
        hitD += dead[l - 1];
      }
    }
  }
  if (hitN) return hitD / hitN;
  return n ? d / n : 0;
}

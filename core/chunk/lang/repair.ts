// Error-tolerant parsing for any grammar: syntax a grammar does not know must not cost the
// declarations around it. tree-sitter's recovery sometimes turns a whole class into one ERROR node for
// a single such statement (FluentAvalonia's FAInfoBar: `_closeButton?.Click -= OnCloseButtonClick;`
// lost all 17 members; xstate's Actor class, `let d: (typeof this._deferred)[number]`, lost all ~60).
// Here the text is repaired where tree-sitter met the first error, one place at a time, and re-parsed
// incrementally:
//   1. the statement around the error (from the `;`, `{` or `}` before it to the `;` after it, never
//      across a brace or a boundary line such as a C# preprocessor line) gets the language's
//      length-preserving rewrite of constructs the grammar lacks, kept when the error moves past it
//      (C#: every statement is rewritten up front, in one re-parse);
//   2. otherwise the statement is blanked to spaces (kept under the same condition);
//   3. otherwise that error is left and the next one is tried.
// Only characters other than line breaks change and lengths are kept, so rows, columns and offsets
// of the repaired tree are the file's own: walkers read names, keys and context from the original
// text with the tree's offsets. The repaired tree is used when it has no error left, or when it holds
// at least as many declarations as the first parse. The re-parses share a work budget (by the text's
// size), each charged at least half a first parse's steps. A language may name a reduced view of the
// text to parse instead once the first parse met an error (C#: one branch of each `#if` block, as a
// compiler with one set of symbols sees it — both branches as one text are what tree-sitter cannot
// read): the view is parsed (incrementally, from the first tree), and repaired as above when it still has errors. Owns the repair loop; each language's
// rules (its declarations, rewrites and boundary lines) are its extractor's: csharp-repair.ts
// (C#, Razor code blocks), script-repair.ts (JavaScript, TypeScript).
import type { Edit, Node, Tree } from 'web-tree-sitter';
import type { GrammarName, TreeSitterHost } from '../treesitter.ts';

/** Re-parses at most this many candidate texts per file (deterministic: no clock). */
const MAX_ATTEMPTS = 160;
/**
 * The re-parses of one file may take at most REPAIR_STEPS_PER_KIB tree-sitter progress steps per KiB
 * of its text (steps as PARSE_STEP_BUDGET counts them: deterministic), or REPAIR_MIN_STEPS when that
 * is more; the attempt that crosses it is the last. A re-parse after an error is not incremental where
 * the error is (tree-sitter reuses no subtree holding one), so each attempt costs about a parse of the
 * file: EF Core's test bases with a `bool async` parameter (`if (async)`) made 160 attempts each
 * (RelationalDatabaseFacadeExtensionsTest.cs, 23 KB: 23,705 steps, ~1,000 per KiB, 18 s at load 15),
 * and the tree kept its errors, so the first parse was used after all. A first parse takes ~8–12
 * steps per KiB: the budget is ~20 parses' work (that file: 3.2 s, the same chunks). Per KiB, not per
 * first-parse step: a Razor block's first parse can see little C# (MudDataGrid.razor: 42 steps, then
 * 62 attempts and 5,507 steps that recovered members). Over MudBlazor, FluentAvalonia, Avalonia and
 * the sample workspace (every .cs, .razor and .cshtml) the budget changes no chunk and no outline
 * (each file's chunks and outline hashed with and without it); only MudDataGrid.razor's count of
 * errors met (27 of 63 before its budget ran out) differs, and the index keeps only whether a file has any.
 */
export const REPAIR_STEPS_PER_KIB = 200;
export const REPAIR_MIN_STEPS = 1_000;
/**
 * Each attempt is charged at least this share of the first parse's steps: its steps undercount its
 * cost. Where tree-sitter reuses most of the tree a re-parse counts few steps, but the attempt still
 * copies, edits and walks the whole tree (and finds the statement): EF Core's OperationExecutorTest.cs
 * (a verbatim interpolated string the grammar misreads) took 160 attempts of ~5 steps each against
 * the first parse's 750, 1.3 s of CPU in all; JsonTypesTestBase.cs (before the `? []` fix) 160 of
 * ~160 steps against 1,638, 10.5 s — in CPU an attempt cost ~0.4 of a first parse. With this floor
 * the budget is ~40 attempts of a file at most, whatever their steps.
 */
export const ATTEMPT_MIN_SHARE = 0.5;

/** The repair's work budget for a text of this many UTF-16 units (see REPAIR_STEPS_PER_KIB). */
export function repairBudget(textLength: number): number {
  return Math.max(REPAIR_MIN_STEPS, Math.round((REPAIR_STEPS_PER_KIB * textLength) / 1024));
}
/** A statement longer than this is not blanked (the tree has no boundary near the error). */
const MAX_SPAN_CHARS = 4000;

/** What a language brings to the repair. */
export interface RepairRules {
  grammar: GrammarName;
  /** Node types whose count guards against a repair that costs more than it recovers. */
  declarations: readonly string[];
  /** Length-preserving rewrite of one statement's text into syntax the grammar knows, or null. */
  rewrite?: (statement: string) => string | null;
  /** Rewrite every statement up front (one re-parse) rather than only the statement at an error. */
  rewriteAll?: boolean;
  /** Lines that bound a statement as its braces do (C#'s `#if`, `#region`, …). */
  boundaryLines?: RegExp;
  /** Parent node types of `{` / `}` tokens that are no statement boundary (string interpolations). */
  innerBraces: ReadonlySet<string>;
  /**
   * A same-length view of the text (line breaks kept) to parse, and repair, instead of the text once its
   * first parse met an error; null when the text has none (C#: one branch of each conditional block).
   */
  view?: (text: string) => string | null;
}

export interface RepairedParse {
  tree: Tree;
  /** What was parsed: the file's text, or its view and/or it with repaired statements (same length, same line breaks). */
  parsed: string;
  /** Places where the grammar met syntax it does not know (0: a clean parse). */
  errors: number;
  /** Of those, the places repaired (rewritten or blanked). */
  repaired: number;
}

/** Parses `text` with the rules' grammar, repairing what it does not know (see the header). The caller deletes `tree`. */
export async function parseRepaired(ts: TreeSitterHost, rules: RepairRules, text: string): Promise<RepairedParse> {
  const first = await ts.parse(rules.grammar, text);
  if (!first.rootNode.hasError) return { tree: first, parsed: text, errors: 0, repaired: 0 };
  const firstSteps = ts.lastParseSteps;
  const view = rules.view?.(text) ?? null;
  if (view === null) return repairFrom(ts, rules, text, first, firstSteps);
  // The view re-parses incrementally from the first tree (one edit over the stretch that differs):
  // the same tree as a fresh parse of the view (test: chunk-csharp), at about a third of its CPU.
  let from = 0;
  let to = view.length;
  while (from < to && text.charCodeAt(from) === view.charCodeAt(from)) from++;
  while (to > from && text.charCodeAt(to - 1) === view.charCodeAt(to - 1)) to--;
  let reduced: Tree;
  try {
    first.edit(sameLengthEdit(text, from, to));
    reduced = await ts.parse(rules.grammar, view, first);
  } finally {
    first.delete();
  }
  if (!reduced.rootNode.hasError) return { tree: reduced, parsed: view, errors: 0, repaired: 0 };
  return repairFrom(ts, rules, view, reduced, firstSteps);
}

/**
 * The repair loop over `text`, whose parse `first` met an error (the caller gives up `first`);
 * `firstSteps`: the steps of the file's first (whole, not incremental) parse, which set the attempts' floor.
 */
async function repairFrom(ts: TreeSitterHost, rules: RepairRules, text: string, first: Tree, firstSteps: number): Promise<RepairedParse> {
  let budget = repairBudget(text.length);
  const attemptFloor = Math.ceil(firstSteps * ATTEMPT_MIN_SHARE);
  const before = declarationCount(first.rootNode, rules);
  let tree: Tree | null = null;
  try {
    // 1. Rewrite the constructs the grammar lacks, statement by statement, in one incremental re-parse.
    let cur = text;
    let repaired = 0;
    const rewritten = rules.rewriteAll && rules.rewrite ? rewriteStatements(first.rootNode, text, rules) : { text, changed: 0, from: 0, to: 0 };
    if (rewritten.changed) {
      const edited = first.copy();
      edited.edit(sameLengthEdit(text, rewritten.from, rewritten.to));
      try {
        tree = await ts.parse(rules.grammar, rewritten.text, edited);
        budget -= ts.lastParseSteps;
      } finally {
        edited.delete();
      }
      cur = rewritten.text;
      repaired += rewritten.changed;
    } else {
      tree = first.copy();
    }
    // 2. At each error left, first to last: the rewrite (when not done up front), else blank the
    //    statement, while that moves the error on.
    let from = 0;
    let errors = rewritten.changed;
    let attempts = 0;
    while (attempts < MAX_ATTEMPTS && budget > 0) {
      const err = firstError(tree.rootNode, from);
      if (!err) break;
      errors++;
      const span = statementAround(tree.rootNode, cur, err.startIndex, rules);
      let accepted = false;
      const stmt = span ? cur.slice(span.start, span.end) : '';
      const rewrite = span && !rules.rewriteAll ? rules.rewrite?.(stmt) ?? null : null;
      for (const replacement of span ? [rewrite, blank(stmt)] : []) {
        if (replacement === null || !span || attempts >= MAX_ATTEMPTS || budget <= 0) continue;
        attempts++;
        const candidate = cur.slice(0, span.start) + replacement + cur.slice(span.end);
        const edited = tree.copy();
        edited.edit(sameLengthEdit(cur, span.start, span.end));
        let reparsed: Tree;
        try {
          reparsed = await ts.parse(rules.grammar, candidate, edited);
          budget -= Math.max(ts.lastParseSteps, attemptFloor);
        } finally {
          edited.delete();
        }
        const moved = firstError(reparsed.rootNode, from);
        if (!moved || moved.startIndex > span.end) {
          tree.delete();
          tree = reparsed;
          cur = candidate;
          repaired++;
          accepted = true;
          break;
        }
        reparsed.delete();
      }
      // Not repaired: leave this error as tree-sitter recovered it and go on after it.
      if (!accepted) from = Math.max(span ? span.end : err.endIndex, err.startIndex + 1);
    }
    // A tree without errors is taken; one that still has some only when it lost no declaration (an
    // error in the first parse can make junk look like fields, so a clean tree may count fewer).
    if (repaired === 0 || (tree.rootNode.hasError && declarationCount(tree.rootNode, rules) < before)) {
      tree.delete();
      return { tree: first, parsed: text, errors: Math.max(errors, 1), repaired: 0 };
    }
    first.delete();
    return { tree, parsed: cur, errors: Math.max(errors, 1), repaired };
  } catch (e) {
    tree?.delete();
    first.delete();
    throw e;
  }
}

/** The edit of a same-length replacement of text[start, end) (positions do not move). */
function sameLengthEdit(text: string, start: number, end: number): Edit {
  const startPosition = pointAt(text, start);
  const endPosition = pointAt(text, end);
  return { startIndex: start, oldEndIndex: end, newEndIndex: end, startPosition, oldEndPosition: endPosition, newEndPosition: endPosition };
}

/**
 * The rules' rewrite over every statement of the text (the stretches between the `;`, `{` and `}` tokens
 * of the first parse, which knows strings and comments). `changed`: statements rewritten; `from`/`to`:
 * the stretch of text that differs.
 */
function rewriteStatements(root: Node, text: string, rules: RepairRules): { text: string; changed: number; from: number; to: number } {
  const parts: string[] = [];
  let changed = 0;
  let from = text.length;
  let to = 0;
  let at = 0;
  const cut = (end: number) => {
    const stmt = text.slice(at, end);
    const r = rules.rewrite!(stmt);
    if (r !== null) {
      changed++;
      from = Math.min(from, at);
      to = end;
    }
    parts.push(r ?? stmt);
    at = end;
  };
  for (const b of root.descendantsOfType([';', '{', '}'])) {
    if (!b || b.startIndex < at || (b.parent && rules.innerBraces.has(b.parent.type))) continue;
    cut(b.type === ';' ? b.endIndex : b.startIndex);
    if (b.type !== ';') {
      parts.push(text.slice(b.startIndex, b.endIndex));
      at = b.endIndex;
    }
  }
  cut(text.length);
  return { text: changed ? parts.join('') : text, changed, from, to };
}

function declarationCount(root: Node, rules: RepairRules): number {
  return root.descendantsOfType([...rules.declarations]).length;
}

/** The first ERROR or MISSING node that starts at or after `from`, innermost first, in text order. */
export function firstError(n: Node, from: number): Node | null {
  for (const c of n.children) {
    if (!c || c.endIndex <= from) continue;
    if (c.isMissing) {
      if (c.startIndex >= from) return c;
      continue;
    }
    if (!c.hasError) continue;
    const inner = firstError(c, from);
    if (inner) return inner;
    if (c.isError && c.startIndex >= from) return c;
  }
  return null;
}

interface Span {
  start: number;
  end: number;
}

/** A `;`, `{` or `}` token of the tree at offset i (not one inside a string or a comment). */
function isBoundary(root: Node, text: string, i: number, rules: RepairRules): boolean {
  const ch = text[i];
  if (ch !== ';' && ch !== '{' && ch !== '}') return false;
  const leaf = root.descendantForIndex(i, i + 1);
  return !!leaf && leaf.type === ch && !(leaf.parent && rules.innerBraces.has(leaf.parent.type));
}

/**
 * The statement holding offset `at`: from after the boundary token before it to its `;` (included)
 * or up to the next brace, shortened so that it holds no boundary line. Null when it is blank
 * or too long.
 */
function statementAround(root: Node, text: string, at: number, rules: RepairRules): Span | null {
  let start = 0;
  for (let i = Math.min(at, text.length) - 1; i >= 0; i--) {
    if (isBoundary(root, text, i, rules)) {
      start = i + 1;
      break;
    }
    if (at - i > MAX_SPAN_CHARS) return null;
  }
  let end = text.length;
  for (let i = at; i < text.length; i++) {
    if (isBoundary(root, text, i, rules)) {
      end = text[i] === ';' ? i + 1 : i;
      break;
    }
    if (i - at > MAX_SPAN_CHARS) return null;
  }
  // A boundary line (C#'s #if, #region, …) bounds a statement too.
  const directive = rules.boundaryLines ? new RegExp(rules.boundaryLines.source, 'gm') : null;
  if (directive) directive.lastIndex = start;
  for (let m = directive?.exec(text); directive && m && m.index < end; m = directive.exec(text)) {
    const lineEnd = m.index + m[0].length;
    if (lineEnd <= at) start = lineEnd;
    else if (m.index >= at) {
      end = m.index;
      break;
    }
  }
  if (end <= start || !/\S/.test(text.slice(start, end))) return null;
  return { start, end };
}

function pointAt(text: string, index: number): { row: number; column: number } {
  let row = 0;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

/** Every character but line breaks to a space. */
export function blank(s: string): string {
  return s.replace(/[^\r\n]/g, ' ');
}

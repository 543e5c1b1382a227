// Error-tolerant C# parsing: syntax the grammar does not know (C# 12-14: null-conditional assignment,
// `extension` blocks, empty collection expressions, `params` collections, modifiers on simple lambda
// parameters, `allows ref struct`, compound-assignment operators) must not cost the members around
// it. tree-sitter's recovery sometimes turns a whole class into one ERROR node for a single such
// statement (FluentAvalonia's FAInfoBar: `_closeButton?.Click -= OnCloseButtonClick;` lost all 17
// members). The repair loop is repair.ts's (statement by statement, lengths kept, re-parsed
// incrementally, within a work budget); here are C#'s rules for it: every statement first gets a
// length-preserving rewrite of the constructs listed above into a form the grammar knows
// (`a?.b -= c;` → `a .b -= c;`, `extension(T x)` → `class __ext` plus spaces, `= []` → `= 0 `, …),
// in one re-parse; then the statement at each error left is blanked. Preprocessor lines bound a
// statement; `{` `}` of a string interpolation do not. Before any of that, a file whose first parse
// met an error and that holds conditional blocks is parsed as a compiler with one set of symbols
// reads it (oneBranchView): the first branch of each `#if … #elif … #else … #endif` is kept, the
// other branches and the four directives' lines are blanked. Both branches as one text are what the
// grammar cannot read when each opens a member or a block of its own (MSBuild, WPF, WinForms, Orleans:
// tens of re-parses a file, and most such files kept their first tree after them). The walker reads
// names from the file's own text, so a declaration only in a blanked branch is not in the outline,
// but every line of every branch is still in a chunk (chunks are cut from the file's text).
// A clean first parse keeps both branches in its tree (preproc_if nodes) as before.
// Owns C#'s rules; walking the tree is csharp.ts's.
import { ATTEMPT_MIN_SHARE, blank, parseRepaired, repairBudget, type RepairedParse, type RepairRules } from './repair.ts';
import type { TreeSitterHost } from '../treesitter.ts';

export { ATTEMPT_MIN_SHARE, blank, repairBudget };

/** The class name an `extension(…)` block header is rewritten to (the walker shows it as an `extension` container). */
export const EXTENSION_CLASS = '__ext';

/** What `async` used as a name in an expression is rewritten to before parsing (see rewriteKnown). */
export const ASYNC_NAME = '_asyn';

/** Declarations whose count guards against a repair that costs more than it recovers. */
const DECLARATIONS = [
  'class_declaration', 'struct_declaration', 'interface_declaration', 'enum_declaration', 'record_declaration', 'delegate_declaration',
  'method_declaration', 'constructor_declaration', 'destructor_declaration', 'property_declaration', 'indexer_declaration',
  'operator_declaration', 'conversion_operator_declaration', 'event_declaration', 'event_field_declaration', 'field_declaration',
  'enum_member_declaration', 'local_function_statement', 'namespace_declaration', 'file_scoped_namespace_declaration',
];

const CSHARP_RULES: RepairRules = {
  grammar: 'c_sharp',
  declarations: DECLARATIONS,
  rewrite: (s) => rewriteKnown(s),
  rewriteAll: true,
  boundaryLines: /^[ \t]*#.*$/,
  innerBraces: new Set(['interpolation']),
  view: (text) => oneBranchView(text),
};

/** `#if`, `#elif`, `#else`, `#endif` at a line's start (C# allows blanks around the `#`). */
const CONDITIONAL = /^[ \t]*#[ \t]*(if|elif|else|endif)\b(.*)$/gm;

/**
 * The text with one branch of each conditional block, as a compiler with one set of symbols sees it:
 * the first branch whose condition is not the literal `false` (an `#else` always qualifies) keeps its
 * lines; the other branches' lines and every `#if`/`#elif`/`#else`/`#endif` line become blanks (line
 * breaks kept, so every offset, row and column is the file's own). Null when the text has no
 * conditional block, or its directives do not nest (an `#endif` without `#if`, an `#if` left open).
 */
export function oneBranchView(text: string): string | null {
  if (!text.includes('#')) return null;
  /** Per open block: whether a branch was taken, and whether lines of the current branch are kept. */
  const stack: { taken: boolean; keep: boolean }[] = [];
  const parentKeeps = () => stack.length === 0 || stack[stack.length - 1].keep;
  const out: string[] = [];
  let at = 0;
  let keeping = true; // whether the lines since `at` are kept
  const upTo = (end: number) => (keeping ? text.slice(at, end) : blank(text.slice(at, end)));
  CONDITIONAL.lastIndex = 0;
  let blocks = 0;
  for (let m = CONDITIONAL.exec(text); m; m = CONDITIONAL.exec(text)) {
    const [line, word, rest] = m;
    const end = m.index + line.length;
    const literalFalse = /^\s*false\s*(?:\/\/.*)?$/.test(rest);
    if (word === 'if') {
      blocks++;
      const outer = parentKeeps();
      const keep = outer && !literalFalse;
      stack.push({ taken: keep || !outer, keep });
    } else {
      const top = stack[stack.length - 1];
      if (!top) return null;
      if (word === 'endif') stack.pop();
      else {
        const outer = stack.length === 1 || stack[stack.length - 2].keep;
        top.keep = outer && !top.taken && (word === 'else' || !literalFalse);
        top.taken ||= top.keep;
      }
    }
    out.push(upTo(m.index), blank(line));
    at = end;
    keeping = parentKeeps();
  }
  if (stack.length || !blocks) return null;
  out.push(upTo(text.length));
  return out.join('');
}

export type CSharpParse = RepairedParse;

/** Parses C#, repairing what the grammar does not know (see the header). The caller deletes `tree`. */
export function parseCSharp(ts: TreeSitterHost, text: string): Promise<CSharpParse> {
  return parseRepaired(ts, CSHARP_RULES, text);
}

const spaces = (m: string) => ' '.repeat(m.length);

/**
 * Length-preserving rewrites of constructs newer than the grammar into ones it knows, or null when
 * none applies. Each keeps the statement (and its members) in the tree; names stay where they were.
 */
export function rewriteKnown(s: string): string | null {
  let out = s;
  // extension(string s) / extension<T>(IEnumerable<T> src) where T : class  →  class __ext …
  const ext = /^(\s*)extension\s*(?:<[^>{};]*>)?\s*\(/.exec(out);
  if (ext) {
    const from = ext[1].length;
    const header = `class ${EXTENSION_CLASS}`;
    if (out.length - from >= header.length) out = out.slice(0, from) + header + blank(out.slice(from + header.length));
  }
  // a?.b = c; a?.b += c; a?[i] = c;  →  a .b = c; …  (only left of the assignment operator; not `int?[] x = c`)
  const assign = /(?<![=!<>+\-*/%&|^?])(?:\?\?|<<|>>>?|[-+*/%&|^])?=(?![=>])/.exec(out);
  if (assign) {
    const lhs = out.slice(0, assign.index).replace(/\?(?=\s*(?:\.|\[(?!\s*\])))/g, ' ');
    out = lhs + out.slice(assign.index);
  }
  // Empty collection expressions where an expression goes: `= []`, `([])`, `, []`, `return []`, `=> []`, `?? []`, `: []`,
  // `c ? [] : …` — but not a nullable type's array (`sbyte?[] Prop`, `List<int>?[]`), where `?` follows the type.
  out = out.replace(/((?:[=(,:]|\?\?|(?<![\w\]>)])\?|=>|\breturn)\s*)\[(\s*)\]/g, (_m, lead: string, inner: string) => `${lead}0${' '.repeat(inner.length + 1)}`);
  // `async` as a name where an expression goes (EF Core's `bool async` test parameters: `if (async)`, `async ? a : b`,
  // `return async;`, `!async`, `x && async`, `f(async: async)`): the grammar takes it for the modifier and cannot recover.
  // After an operator, `(`, `,`, ` ? `, `=>` or `return`, and before anything a modifier is never followed by (not a
  // name, `(` or `@`), it becomes a name of the same length. A declaration (`bool async`) keeps its name.
  out = out.replace(/((?:[(!&|,=:]|=>|\s\?|\breturn)\s*)\basync\b(?=\s*(?:[^\s\w(@]|$))/g, (_m, lead: string) => lead + ASYNC_NAME);
  // `params` before a collection type that is not an array (C# 13): the parameter parses without it.
  out = out.replace(/\bparams(?=\s+[A-Za-z_][\w.]*\s*<)/g, spaces);
  // Modifiers on simple lambda parameters (C# 14): `(text, out result) =>`.
  if (out.includes('=>')) out = out.replace(/([(,]\s*)((?:scoped\s+)?(?:ref\s+readonly|ref|out|in)\s+)(?=[A-Za-z_]\w*\s*[,)])/g, (_m, lead: string, mod: string) => lead + spaces(mod));
  // `allows ref struct` anti-constraint (C# 13): dropped, with its `where T :` when it stood alone.
  out = out.replace(/\bwhere\s+[A-Za-z_]\w*\s*:\s*allows\s+ref\s+struct\b(?!\s*,)/g, spaces).replace(/,\s*allows\s+ref\s+struct\b/g, spaces);
  // User-defined compound assignment (C# 14): `operator +=(` → `operator + (`.
  out = out.replace(/(\boperator\s*(?:<<|>>>?|[-+*/%&|^]))=(?=\s*\()/g, (_m, op: string) => `${op} `);
  return out === s ? null : out;
}

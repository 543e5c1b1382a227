// Error-tolerant JavaScript / TypeScript parsing: the grammars hci ships (@cursorless/tree-sitter-wasms)
// predate some TypeScript syntax, and tree-sitter's recovery can then drop a whole class: xstate's
// `Actor` class lost every member after `let deferredFn: (typeof this._deferred)[number]`,
// its core types file everything after `interface ActorRef<in out TSnapshot …>`, cheerio's index file what
// followed `export type * from './types.js'`. The loop is repair.ts's; here are the scripts' rules:
// at each error, a length-preserving rewrite of those constructs (`typeof this` → `typeof _his`,
// variance modifiers and the `type` of `export type *` → spaces), else the statement is blanked.
// `{` `}` of a template string's `${…}` are no statement boundary. Owns the rules; walking the tree
// is script.ts's.
import type { GrammarName, TreeSitterHost } from '../treesitter.ts';
import { parseRepaired, type RepairedParse, type RepairRules } from './repair.ts';

/** Declarations whose count guards against a repair that costs more than it recovers. */
const DECLARATIONS = [
  'class_declaration', 'abstract_class_declaration', 'class', 'function_declaration', 'generator_function_declaration',
  'method_definition', 'method_signature', 'abstract_method_signature', 'public_field_definition', 'field_definition',
  'interface_declaration', 'type_alias_declaration', 'enum_declaration', 'lexical_declaration', 'variable_declaration',
  'module', 'internal_module', 'property_signature',
];

const spaces = (m: string) => ' '.repeat(m.length);

/** Length-preserving rewrites of TypeScript newer than the grammar into syntax it knows, or null when none applies. */
export function rewriteScript(s: string): string | null {
  let out = s;
  // `typeof this.x` in a type: `this` becomes a name of the same length.
  out = out.replace(/\btypeof(\s+)this\b/g, (_m, gap: string) => `typeof${gap}_his`);
  // Variance annotations on type parameters (TS 4.7): `<in out T extends …>`, `<out T>`, `<in T,>`.
  out = out.replace(/([<,]\s*)((?:in\s+)?out\s+|in\s+)(?=[A-Za-z_$][\w$]*\s*(?:extends\b|[,>=]))/g, (_m, lead: string, mod: string) => lead + spaces(mod));
  // `export type * from …` / `export type * as ns from …` (TS 5.0).
  out = out.replace(/\b(export\s+)type(\s*\*)/g, (_m, lead: string, star: string) => `${lead}    ${star}`);
  return out === s ? null : out;
}

const rulesOf = new Map<GrammarName, RepairRules>();

/** Parses script source with its grammar, repairing what the grammar does not know. The caller deletes `tree`. */
export function parseScript(ts: TreeSitterHost, grammar: GrammarName, text: string): Promise<RepairedParse> {
  let rules = rulesOf.get(grammar);
  if (!rules) {
    rules = { grammar, declarations: DECLARATIONS, rewrite: rewriteScript, innerBraces: new Set(['template_substitution']) };
    rulesOf.set(grammar, rules);
  }
  return parseRepaired(ts, rules, text);
}

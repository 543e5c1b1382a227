// Smart case, as ripgrep's -S reads a pattern: a literal or regex that holds an upper-case letter as a
// literal character (a class range's ends count: `[A-Z]`; class escapes like \S, \W or \p{Lu} do not)
// asks for case, so it matches case-sensitively; one without ignores case. Owns that reading only;
// it applies when a search request leaves case_sensitive unset (the contract's default, every surface:
// channels/literal.ts sets the query's case by it; the CLI's -s / -i set it either way).
import { readRegex, type RegexNode } from './regex-syntax.ts';

const UPPER = /\p{Lu}/u;

function hasUpper(n: RegexNode): boolean {
  switch (n.t) {
    case 'char':
      return UPPER.test(n.c);
    case 'set':
      return n.chars !== null && n.chars.some((c) => UPPER.test(c));
    case 'cat':
    case 'alt':
      return n.subs.some(hasUpper);
    case 'rep':
      return hasUpper(n.sub);
    default:
      return false;
  }
}

/** Whether smart case makes this pattern case-sensitive: it holds an upper-case letter as a literal character. */
export function smartCaseSensitive(pattern: string, kind: 'literal' | 'regex'): boolean {
  if (kind === 'literal') return UPPER.test(pattern);
  return hasUpper(readRegex(pattern, false));
}

// A reading of RE2 regex syntax (what re2js and ripgrep's Rust regex accept) into the small tree the
// trigram analysis needs (trigrams.ts): characters, character sets, any character, empty-width
// assertions, concatenation, alternation and repetition, with the case-insensitive flag of each
// character. Owns this reading only. It never judges whether a pattern is valid — the engine does
// (matcher.ts compiles first) — and where it is unsure it answers "any character" or "anything",
// which weakens the prefilter but never drops a match.

export type RegexNode =
  | { t: 'char'; c: string; fold: boolean }
  /** A character set; `chars` null when it is too large or not known here (\w, \p{…}, negated sets). */
  | { t: 'set'; chars: string[] | null; fold: boolean }
  | { t: 'any' }
  /** Matches the empty string only (anchors, \b, lookarounds, empty groups). */
  | { t: 'empty' }
  /** Could match anything at all (what the reader does not understand). */
  | { t: 'anything' }
  | { t: 'cat'; subs: RegexNode[] }
  | { t: 'alt'; subs: RegexNode[] }
  | { t: 'rep'; sub: RegexNode; min: number; max: number };

/** Sets larger than this are "any character" to the analysis (as in Google Code Search). */
const MAX_SET = 100;

const ESCAPED_CHARS: Record<string, string> = { a: '\x07', f: '\f', t: '\t', n: '\n', r: '\r', v: '\v' };

class Reader {
  private i = 0;
  private readonly chars: string[];

  constructor(pattern: string) {
    this.chars = Array.from(pattern);
  }

  private peek(k = 0): string | undefined {
    return this.chars[this.i + k];
  }

  private next(): string {
    return this.chars[this.i++];
  }

  get done(): boolean {
    return this.i >= this.chars.length;
  }

  /** alternation := concat ('|' concat)* ; stops at ')' or the end. */
  alternation(fold: { on: boolean }): RegexNode {
    const subs: RegexNode[] = [this.concat(fold)];
    while (this.peek() === '|') {
      this.next();
      subs.push(this.concat(fold));
    }
    return subs.length === 1 ? subs[0] : { t: 'alt', subs };
  }

  private concat(fold: { on: boolean }): RegexNode {
    const subs: RegexNode[] = [];
    while (!this.done && this.peek() !== '|' && this.peek() !== ')') {
      const atom = this.atom(fold);
      if (atom === null) continue;
      subs.push(this.repeat(atom));
    }
    return subs.length === 1 ? subs[0] : { t: 'cat', subs };
  }

  private repeat(atom: RegexNode): RegexNode {
    for (;;) {
      const c = this.peek();
      let min: number, max: number;
      if (c === '*') [min, max] = [0, Infinity];
      else if (c === '+') [min, max] = [1, Infinity];
      else if (c === '?') [min, max] = [0, 1];
      else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(this.chars.slice(this.i, this.i + 16).join(''));
        if (!m) return atom; // not a repetition: the '{' is a literal, read as the next atom
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
        this.i += m[0].length - 1;
      } else return atom;
      this.next();
      if (this.peek() === '?') this.next(); // lazy: the same strings
      atom = { t: 'rep', sub: atom, min, max };
    }
  }

  /** One atom, or null for a flag group `(?i)` that changes flags and matches nothing. */
  private atom(fold: { on: boolean }): RegexNode | null {
    const c = this.next();
    if (c === '.') return { t: 'any' };
    if (c === '^' || c === '$') return { t: 'empty' };
    if (c === '[') return this.set(fold.on);
    if (c === '\\') return this.escape(fold.on);
    if (c === '(') return this.group(fold);
    return { t: 'char', c, fold: fold.on };
  }

  private group(fold: { on: boolean }): RegexNode | null {
    let inner = { on: fold.on };
    if (this.peek() === '?') {
      this.next();
      const k = this.peek();
      if (k === ':' ) this.next();
      else if (k === 'P' && this.peek(1) === '<' || k === '<' && this.peek(1) !== '=' && this.peek(1) !== '!') {
        while (!this.done && this.next() !== '>') { /* the group's name */ }
      } else if (k === '=' || k === '!' || (k === '<' && (this.peek(1) === '=' || this.peek(1) === '!'))) {
        // Lookaround (not RE2): consumes nothing, so it adds no trigram.
        this.skipGroup();
        return { t: 'empty' };
      } else {
        // Flags: (?i) for the rest of the enclosing group, (?i:…) for the group.
        let on = true;
        let flags = fold.on;
        while (!this.done && this.peek() !== ')' && this.peek() !== ':') {
          const f = this.next();
          if (f === '-') on = false;
          else if (f === 'i') flags = on;
        }
        if (this.peek() === ')') {
          this.next();
          fold.on = flags;
          return null;
        }
        this.next(); // ':'
        inner = { on: flags };
      }
    }
    const node = this.alternation(inner);
    if (this.peek() === ')') this.next();
    return node;
  }

  private skipGroup(): void {
    let depth = 1;
    while (!this.done && depth > 0) {
      const c = this.next();
      if (c === '\\') this.next();
      else if (c === '(') depth++;
      else if (c === ')') depth--;
    }
  }

  private escape(fold: boolean): RegexNode {
    const c = this.next();
    if (c === undefined) return { t: 'anything' };
    if ('bBAz'.includes(c)) return { t: 'empty' };
    if ('dDsSwWC'.includes(c)) return { t: 'set', chars: c === 'd' ? '0123456789'.split('') : null, fold };
    if (c === 'p' || c === 'P') {
      if (this.peek() === '{') while (!this.done && this.next() !== '}') { /* the class name */ }
      else this.next();
      return { t: 'set', chars: null, fold };
    }
    if (c === 'Q') {
      const lit: RegexNode[] = [];
      while (!this.done && !(this.peek() === '\\' && this.peek(1) === 'E')) lit.push({ t: 'char', c: this.next(), fold });
      if (!this.done) this.i += 2;
      return { t: 'cat', subs: lit };
    }
    const code = this.escapedCode(c);
    if (code === null) return { t: 'anything' };
    return { t: 'char', c: String.fromCodePoint(code), fold };
  }

  /** The code point of a character escape (after the backslash, `c` read), or null when unknown. */
  private escapedCode(c: string): number | null {
    if (ESCAPED_CHARS[c]) return ESCAPED_CHARS[c].codePointAt(0)!;
    if (c === 'x') {
      if (this.peek() === '{') {
        let hex = '';
        this.next();
        while (!this.done && this.peek() !== '}') hex += this.next();
        this.next();
        return /^[0-9a-fA-F]{1,6}$/.test(hex) ? parseInt(hex, 16) : null;
      }
      const hex = (this.next() ?? '') + (this.next() ?? '');
      return /^[0-9a-fA-F]{2}$/.test(hex) ? parseInt(hex, 16) : null;
    }
    if (/[0-7]/.test(c)) {
      let oct = c;
      while (oct.length < 3 && /[0-7]/.test(this.peek() ?? '')) oct += this.next();
      return parseInt(oct, 8);
    }
    if (/[\p{L}\p{N}]/u.test(c)) return null; // an escape this reading does not know
    return c.codePointAt(0)!; // escaped punctuation: itself
  }

  private set(fold: boolean): RegexNode {
    let negated = false;
    if (this.peek() === '^') {
      negated = true;
      this.next();
    }
    const chars = new Set<string>();
    let unknown = negated;
    let first = true;
    while (!this.done && (this.peek() !== ']' || first)) {
      first = false;
      let lo: number | null;
      const c = this.next();
      if (c === '[' && this.peek() === ':') {
        while (!this.done && !(this.peek() === ':' && this.peek(1) === ']')) this.next();
        this.i += 2;
        unknown = true;
        continue;
      }
      if (c === '\\') {
        const e = this.next();
        if (e === undefined) break;
        if ('dDsSwWpP'.includes(e)) {
          if ((e === 'p' || e === 'P') && this.peek() === '{') while (!this.done && this.next() !== '}') { /* name */ }
          else if (e === 'p' || e === 'P') this.next();
          unknown = true;
          continue;
        }
        lo = this.escapedCode(e);
      } else lo = c.codePointAt(0)!;
      let hi = lo;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        this.next();
        const h = this.next();
        hi = h === '\\' ? this.escapedCode(this.next()) : h.codePointAt(0)!;
      }
      if (lo === null || hi === null || hi - lo > MAX_SET) {
        unknown = true;
        continue;
      }
      for (let cp = lo; cp <= hi && chars.size <= MAX_SET; cp++) chars.add(String.fromCodePoint(cp));
    }
    if (this.peek() === ']') this.next();
    return { t: 'set', chars: unknown || chars.size > MAX_SET ? null : [...chars], fold };
  }

  /** Whatever follows an unbalanced ')' is read too: the engine has refused such a pattern already. */
  skipClose(): boolean {
    if (this.peek() !== ')') return false;
    this.next();
    return true;
  }
}

/** The tree of an RE2 pattern; `caseInsensitive` is the flag the whole pattern starts with. */
export function readRegex(pattern: string, caseInsensitive: boolean): RegexNode {
  const r = new Reader(pattern);
  const fold = { on: caseInsensitive };
  const parts: RegexNode[] = [r.alternation(fold)];
  // An unbalanced ')' ends the reading early; the engine refuses such patterns, but stay sound.
  while (r.skipClose()) parts.push({ t: 'anything' }, r.alternation(fold));
  return parts.length === 1 ? parts[0] : { t: 'cat', subs: parts };
}

/** A literal string as a tree: its characters in a row. */
export function literalNode(text: string, caseInsensitive: boolean): RegexNode {
  return { t: 'cat', subs: Array.from(text, (c): RegexNode => ({ t: 'char', c, fold: caseInsensitive })) };
}

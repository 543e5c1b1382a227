// Regexes written with Unicode property classes (`\p{L}`, `\p{Lu}`, `\p{N}`…) that run an ASCII twin on
// ASCII text: the same pattern with each class cut down to its ASCII members (`\p{L}` → `A-Za-z`,
// `\p{Lu}` → `A-Z`, `\p{N}` → `0-9`, `\p{M}`/`\p{Co}`/`\p{Nl}`/`\p{scx=…}` → none), which matches exactly
// what the Unicode one matches on a string with no code point above U+007F. Owns that rewrite and the
// choice between the two; which patterns use it, and what they mean, is their modules'.
//
// Why: V8 builds a `\p{…}` class from ICU's tables when such a regex is created (~0.6–1.2 ms each) and
// again when it is first compiled (~1 ms), in every new process — nothing of it is in a code cache. A
// one-shot `hci search` ran ten of them (query parsing, path roles, boosts) on all-ASCII text and paid
// ~20 ms for it (Node 24). Here each Unicode regex is created only when a text needs it.

/** What each property class holds in ASCII (the text inside a `[…]`; '' for none). */
const ASCII_MEMBERS: Readonly<Record<string, string>> = {
  L: 'A-Za-z',
  Lu: 'A-Z',
  Ll: 'a-z',
  N: '0-9',
  Nd: '0-9',
  M: '',
  Co: '',
  Nl: '',
};

const NON_ASCII = /[^\x00-\x7f]/;

/** Whether every UTF-16 unit of the text is ASCII. */
export function isAscii(text: string): boolean {
  return !NON_ASCII.test(text);
}

/**
 * The ASCII twin of a regex source: every `\p{…}` replaced by its ASCII members, inside a class as a
 * range, outside as a class of its own (`[]`, which matches nothing, for a class with no ASCII member).
 * Throws on a property it does not know, or on `\P{…}`, so a new pattern is checked before it is used.
 */
export function asciiSource(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === '\\') {
      const next = source[i + 1];
      if (next === 'p' && source[i + 2] === '{') {
        const end = source.indexOf('}', i + 3);
        const name = source.slice(i + 3, end);
        const members = name.startsWith('scx=') || name.startsWith('Script=') || name.startsWith('sc=') ? '' : ASCII_MEMBERS[name];
        if (end < 0 || members === undefined) throw new Error(`asciiSource: no ASCII twin for \\p{${name}} in /${source}/`);
        out += inClass ? members : `[${members}]`;
        i = end;
        continue;
      }
      if (next === 'P') throw new Error(`asciiSource: \\P{…} is not supported in /${source}/`);
      out += ch + next;
      i++;
      continue;
    }
    if (ch === '[' && !inClass) inClass = true;
    else if (ch === ']' && inClass) inClass = false;
    out += ch;
  }
  return out;
}

/** A Unicode-property regex and its ASCII twin, each made on first use. */
export class AsciiTwinRegex {
  private unicode: RegExp | undefined;
  private ascii: RegExp | undefined;

  constructor(
    readonly source: string,
    readonly flags: string,
  ) {}

  /** The regex to run on `text`: the ASCII twin when the text is all ASCII (the same matches), else the Unicode pattern. */
  for(text: string): RegExp {
    if (isAscii(text)) return (this.ascii ??= new RegExp(asciiSource(this.source), this.flags));
    return this.unicodeRegex();
  }

  /** The Unicode pattern itself. */
  unicodeRegex(): RegExp {
    return (this.unicode ??= new RegExp(this.source, this.flags));
  }
}

/** Every twin made through asciiTwin, so a test can check each against its Unicode pattern without a hand-kept list. */
const madeTwins: AsciiTwinRegex[] = [];

/** `new AsciiTwinRegex(source, flags)`: write the source as a string (`'[\\p{L}\\p{N}]+'`). */
export function asciiTwin(source: string, flags: string): AsciiTwinRegex {
  const twin = new AsciiTwinRegex(source, flags);
  madeTwins.push(twin);
  return twin;
}

/** The twins made so far (by the modules imported so far), in the order they were made. */
export function twinsMade(): readonly AsciiTwinRegex[] {
  return madeTwins;
}

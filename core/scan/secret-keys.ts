// The key-name rules' matcher: finds `key <sep> value` where the key ends in a secret word
// (password, secret, token, key…), reads the value the way the file's language writes a literal,
// and hands (key, word, value) to the first KEY_RULES row that takes it. Owns assignment syntax
// (= : := =>, a C# auto-property or object initializer, XML elements and <add key=… value=…>,
// connection strings, a Dockerfile's `ENV KEY value`, `-e KEY=value` on a command line); which keys
// and values count is secret-rules.ts's table.
import { KEY_RULES, type KeyRule } from './secret-rules.ts';
import { isPlaceholder, randomEnough, tokenLike } from './secret-values.ts';
import { LANGUAGES } from '../languages/table.ts';

// One case-insensitive probe finds every secret word; sticky checks right after it decide whether
// it ends the key of an assignment or an XML name.
const WORDS = 'password|passwd|passphrase|pwd|secret[_-]?key|secret|api[_-]?key|access[_-]?token|auth[_-]?token|credentials?|token|key|auth|pat|signature|sas|login';
const PROBE = new RegExp(WORDS, 'gi');
/** The secret word a key ends with. */
const LAST_WORD = new RegExp(`(?:${WORDS})$`, 'i');
const AFTER_KEY = /(?![A-Za-z0-9_])["']?(?:[ \t]*\{[ \t]*get;[^}\r\n]*\})?[ \t]*(?:=>|:=|=(?!=)|:(?!:))[ \t]*/y;
const AFTER_XML = /(?![A-Za-z0-9_])(?:>|"[^>\r\n]*?\bvalue\s*=)/y;
const KEY_CHAR = /[A-Za-z0-9_.-]/;
const BLANK = /[ \t]/;
/** What may stand before a key whose value is written bare: a YAML list dash, `export`, `set` (a command's env option: afterEnvOption). */
const KEY_PREFIX = /^\s*(?:-\s+|export\s+|set\s+|(?:ENV|ARG)\s+)?["']?$/;
/** A command's env option (`docker run -e KEY=…`, `helm --set key=…`); at most 13 characters with the space before it. */
const ENV_OPTION = /\s(?:-e|--env|--build-arg|--set(?:-string)?)$/;
const QUOTED = /^[@$]?(["'])((?:\\.|(?!\1)[^\\])*)\1/;
const XML_ELEMENT = /<([A-Za-z0-9_.:-]+)>([^<\r\n]+)<\/\1>/g;
const XML_ADD = /key\s*=\s*"([^"]*)"[^>]*?\bvalue\s*=\s*"([^"]*)"/gi;
/** A Dockerfile's `ENV KEY value` (no `=`): the key, then the value to the end of the line. */
const DOCKER_ENV = /^[ \t]*(?:ENV|ARG)[ \t]+([A-Za-z_][A-Za-z0-9_.-]*)[ \t]+([^=\s][^\r\n]*)$/gm;
const CONN_CONTEXT = /(?:^|[;"'\s])(?:server|data source|host|user id|uid|user|username|database|initial catalog|address|addr)\s*=/i;

/** Languages where an unquoted right-hand side is code (an expression), never a secret literal. */
const CODE_LANGS = new Set(LANGUAGES.filter((r) => r.code).map((r) => r.id));

const CONNECTION_RULE = KEY_RULES.find((r) => r.form === 'connection-string')!;

// What stands before a key is judged from the key backwards, never by an expression over the line up
// to it: a minified file's one long line meets the probe thousands of times, and a scan from the
// line's start at each made the pass quadratic (a 234 KB minified script: ~24 s).

/** Where the run of `ch` characters (one each) that ends at `end` in `s` starts. */
function runStart(s: string, end: number, ch: RegExp): number {
  let i = end;
  while (i > 0 && ch.test(s[i - 1])) i--;
  return i;
}

/** `before` (a line up to a key) ends in a command's env option, blanks and an optional quote. */
function afterEnvOption(before: string): boolean {
  const j = /["']/.test(before.slice(-1)) ? before.length - 1 : before.length;
  const b = runStart(before, j, BLANK);
  return b < j && ENV_OPTION.test(before.slice(Math.max(0, b - 13), b));
}

const normWord = (w: string) => w.toLowerCase().replace(/[_-]/g, '');
const RULE_WORDS = new Map(KEY_RULES.map((r) => [r, r.words ? new Set(r.words.map(normWord)) : null]));

/** An unquoted right-hand side that reads as a literal (YAML/.env/INI), not as code or a reference. */
function bareLiteral(rhs: string): string | null {
  const v = rhs.replace(/\s+#.*$/, '').trim();
  if (v === '' || /^[!|>&*[{(<$%`@]/.test(v)) return null;
  if (/[;,(]$/.test(v) || v.includes('(') || v.includes('=>')) return null;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+!?$/.test(v) && !(v.length >= 20 && /\d/.test(v))) return null; // member access (not a token with a dot: s.…)
  if (/^[A-Za-z_][A-Za-z0-9_.]*\[/.test(v)) return null; // indexer: env["X"], config['Y']
  return isPlaceholder(v) ? null : v;
}

/** Markup or drawing data (an icon's SVG under `const string Password`): a tag with its attributes or an SVG path's commands. */
const MARKUP = /<[A-Za-z][\w:-]*[\s/>][^\r\n]*>|(?:^|[\s"'])[MmLlHhVvCcZz]\s?-?\d+(?:\.\d+)?[, ]-?\d/;

function valueAccepted(rule: KeyRule, v: string): boolean {
  if (rule.value === 'literal') return !isPlaceholder(v) && !MARKUP.test(v);
  if (rule.value === 'token') return tokenLike(v);
  return rule.value.test(v) && randomEnough(v, 3);
}

/**
 * A value made of words that holds the key's own secret word (`custom_password`, `excalidraw-oai-api-key`,
 * `db-secret`): a name (a storage key, a setting's name) or a filler, not a secret.
 */
function namesItself(value: string, word: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9]*(?:[_.-][A-Za-z0-9]+)*$/.test(value) || !/[_.-]/.test(value)) return false;
  const parts = value.toLowerCase().split(/[_.-]/);
  return parts.join('').includes(word) && parts.every((p) => /^[a-z]+\d{0,2}$/.test(p));
}

/** The first rule that takes `value` under `key` (whose last secret word is `word`), or null. */
function ruleFor(key: string, word: string, value: string): KeyRule | null {
  const w = normWord(word);
  if (namesItself(value, w)) return null;
  for (const rule of KEY_RULES) {
    const words = RULE_WORDS.get(rule);
    if (rule.form || (words && !words.has(w))) continue;
    if (rule.key && !rule.key.test(key)) continue;
    if (rule.notKey?.test(key)) continue;
    if (valueAccepted(rule, value)) return rule;
  }
  return null;
}

/**
 * The rule that takes `key <sep> rhs` on one line, or null. keyStart is where the key begins in the
 * line (identifier characters before the word included); rhs is the rest of the line after the separator.
 */
function judgeAssignment(line: string, keyStart: number, word: string, sep: string, rhs: string, lang: string | undefined): KeyRule | null {
  const key = line.slice(keyStart).match(/^[A-Za-z0-9_.-]*/)![0];
  const w = normWord(word);
  const before = line.slice(0, keyStart);
  if (/[A-Za-z0-9]:$/.test(before.slice(-2))) return null; // a namespaced XML attribute (x:Key="…") names a resource
  // Connection strings: `…;Password=value;…` inside a string, with other connection-string keys on the line
  // (not `Password = "…"` in code that also sets a UserName: that is an assignment).
  if ((w === 'password' || w === 'pwd') && sep.trim() === '=' && !/^[@$]?["']/.test(rhs) && /^[;"']?$/.test(before.slice(0, runStart(before, before.length, BLANK)).slice(-1)) && line.includes(';') && CONN_CONTEXT.test(line)) {
    const value = /^[^;"'\r\n]*/.exec(rhs)![0];
    return isPlaceholder(value) ? null : CONNECTION_RULE;
  }
  let value: string | null;
  const q = QUOTED.exec(rhs);
  if (q) value = q[2];
  else if (/^[@$]?["']/.test(rhs)) return null; // an unterminated or multi-line string: not judged
  else if (lang !== undefined && CODE_LANGS.has(lang)) return null;
  else if (!KEY_PREFIX.test(before) && !afterEnvOption(before)) return null; // bare values only in `key: value` / `KEY=value` lines
  else value = bareLiteral(rhs);
  if (value === null) return null;
  return ruleFor(key, word, value);
}

/** XML: an element or an <add key=… value=…> whose name ends in a secret word, with a literal value. */
function xmlRule(line: string): KeyRule | null {
  for (const [, name, value] of [...line.matchAll(XML_ELEMENT), ...line.matchAll(XML_ADD)]) {
    const word = LAST_WORD.exec(name.replace(/^.*:/, ''))?.[0];
    if (!word || isPlaceholder(value)) continue;
    const rule = ruleFor(name, word, value.trim());
    if (rule) return rule;
  }
  return null;
}

export interface KeyFinding {
  line: number;
  rule: KeyRule;
}

/**
 * Key-rule findings of a text, at most one per line and none on lines in `skip`. `lineOf` turns an
 * offset into a 1-based line; `lineSpan` gives that line's [start, end) offsets (end before the break).
 */
export function findKeySecrets(
  text: string,
  lang: string | undefined,
  skip: ReadonlySet<number>,
  lineOf: (offset: number) => number,
  lineSpan: (line: number) => [number, number],
): KeyFinding[] {
  const out: KeyFinding[] = [];
  const flagged = new Set(skip);
  const xmlClean = new Set<number>();
  PROBE.lastIndex = 0;
  for (let m: RegExpExecArray | null; (m = PROBE.exec(text)); ) {
    const wordEnd = m.index + m[0].length;
    const l = lineOf(m.index);
    if (flagged.has(l)) continue;
    const [lineStart, lineEnd] = lineSpan(l);
    let rule: KeyRule | null = null;
    AFTER_KEY.lastIndex = wordEnd;
    const sep = AFTER_KEY.exec(text);
    if (sep) {
      const t = text.slice(lineStart, lineEnd);
      const keyStart = runStart(t, m.index - lineStart, KEY_CHAR);
      rule = judgeAssignment(t, keyStart, m[0], sep[0], t.slice(AFTER_KEY.lastIndex - lineStart), lang);
    } else {
      AFTER_XML.lastIndex = wordEnd;
      if (!xmlClean.has(l) && AFTER_XML.test(text)) {
        rule = xmlRule(text.slice(lineStart, lineEnd));
        if (!rule) xmlClean.add(l); // the line's elements are all judged: its next probe hits need no second look
      }
    }
    if (rule) {
      out.push({ line: l, rule });
      flagged.add(l);
    }
  }
  // Dockerfiles: `ENV DB_PASSWORD hunter2` (the `=` form is an assignment above).
  if (!lang || !CODE_LANGS.has(lang)) {
    DOCKER_ENV.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = DOCKER_ENV.exec(text)); ) {
      const l = lineOf(m.index);
      const word = LAST_WORD.exec(m[1])?.[0];
      if (flagged.has(l) || !word) continue;
      const q = QUOTED.exec(m[2].trim());
      const value = q ? q[2] : bareLiteral(m[2]);
      const rule = value === null ? null : ruleFor(m[1], word, value);
      if (rule) {
        out.push({ line: l, rule });
        flagged.add(l);
      }
    }
  }
  return out;
}

// Secret detection: the file-name denylist (layer a) and content rules (layer c: the table in
// secret-rules.ts, pattern rules — an expression, a block to an end marker, or a rule's own scan —
// matched here, key rules by secret-keys.ts). Layer b, the ignore
// rules, is the walker's. Content findings are line ranges, a kind and the rule's id only — the
// matched text is never returned, so nothing downstream can log it. Leaving chunks out is the
// indexer's job.
import { lineAt, lineStarts } from './content.ts';
import { PATTERN_RULES } from './secret-rules.ts';
import { findKeySecrets } from './secret-keys.ts';

// ---------------------------------------------------------------- layer a: file names

const SECRET_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.kube']);
const SECRET_NAMES = new Set(['.env', '.npmrc', '.pypirc', '.netrc', '.git-credentials']);
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);
const SECRET_NAME_PATTERN = /(?:\.(?:pem|key|p12|pfx|keystore|jks)$|^id_(?:rsa|ed25519|ecdsa|dsa))/;

/**
 * File-name denylist. Names compare case-insensitively, except the `credentials*` prefix, which is
 * lower-case only so C# types such as `CredentialsService.cs` stay indexable.
 */
export function isSecretPath(path: string): boolean {
  const segs = path.split('/');
  if (segs.some((s) => SECRET_DIRS.has(s))) return true;
  const raw = segs[segs.length - 1];
  if (raw.startsWith('credentials')) return true;
  const name = raw.toLowerCase();
  if (SECRET_NAMES.has(name)) return true;
  if (name.startsWith('.env.') && !ENV_TEMPLATES.has(name)) return true;
  return SECRET_NAME_PATTERN.test(name);
}

// ---------------------------------------------------------------- layer c: content

export interface SecretFinding {
  /** 1-based, inclusive, over splitLines(text). */
  startLine: number;
  endLine: number;
  kind: string;
  /** The id of the rule that found it (secret-rules.ts). */
  rule: string;
}

// Every rule's triggers found in one pass over the text, each by one of its three-character runs —
// the rarest (characters that are not letters first: `ss:` of `pass:`, `et_` of `secret_`; then rare
// letters), as plain words are everywhere in code — hashed into 64 Ki buckets; a hit is confirmed with startsWith,
// and a bucket is dropped once its triggers are all found. (With ~250 triggers, one `includes` scan
// each costs ~190 ms on a 500 KiB file; keyed by their first two characters, which C# meets 150,000
// times — "as", "se", "pa" — ~45 ms; this way a few ms.)
const TRIGGERS = [...new Set(PATTERN_RULES.flatMap((r) => r.triggers))];
const CONTEXT_RULES = new Set(PATTERN_RULES.filter((r) => r.class === 'context').map((r) => r.id));
const BUCKETS = 1 << 16;
/** English letters, commonest first: a run of rare letters is met less often. */
const LETTERS_BY_FREQUENCY = 'etaoinsrhldcumfpgwybvkxjqz';
const bucketOf = (c0: number, c1: number, c2: number) => (c0 * 961 + c1 * 31 + c2) & (BUCKETS - 1);
/** Buckets holding a trigger, and which triggers each holds, with the offset of the run they are keyed by. */
const BUCKET_HIT = new Uint8Array(BUCKETS);
const BY_BUCKET: Array<Array<{ t: string; at: number }> | undefined> = new Array(BUCKETS);
for (const t of TRIGGERS) {
  if (t.length < 3 || t !== t.toLowerCase()) throw new Error(`secret trigger "${t}" must be lower case, 3 characters or more`);
  let at = 0;
  const score = (k: number) => [...t.slice(k, k + 3)].reduce((n, c) => n + (/[a-z]/.test(c) ? LETTERS_BY_FREQUENCY.indexOf(c) : 100), 0);
  for (let k = 1; k + 3 <= t.length; k++) if (score(k) > score(at)) at = k;
  const b = bucketOf(t.charCodeAt(at), t.charCodeAt(at + 1), t.charCodeAt(at + 2));
  BUCKET_HIT[b] = 1;
  (BY_BUCKET[b] ??= []).push({ t, at });
}

/**
 * Buckets whose triggers were all found in the text being scanned: DONE[b] === scan. A stamp per scan
 * rather than a copy of BUCKET_HIT per file: that copy (64 KiB, zeroed and filled) cost more than the
 * scan of a typical 5 KB source file, and was garbage at once.
 */
const DONE = new Uint32Array(BUCKETS);
let scan = 0;

/** The triggers a (lower-cased) text holds. */
function triggersIn(lower: string): Set<string> {
  const present = new Set<string>();
  if (++scan === 0xffffffff) {
    DONE.fill(0);
    scan = 1;
  }
  const stamp = scan;
  let c0 = lower.charCodeAt(0);
  let c1 = lower.charCodeAt(1);
  for (let i = 2, n = lower.length; i < n; i++) {
    const c2 = lower.charCodeAt(i);
    const b = bucketOf(c0, c1, c2);
    c0 = c1;
    c1 = c2;
    if (BUCKET_HIT[b] === 0 || DONE[b] === stamp) continue;
    let left = 0;
    for (const { t, at } of BY_BUCKET[b]!) {
      if (present.has(t)) continue;
      if (lower.startsWith(t, i - 2 - at)) present.add(t);
      else left++;
    }
    if (left === 0) DONE[b] = stamp; // every trigger of this bucket is found: its hits need no more checks
  }
  return present;
}

/**
 * Line ranges that look like secrets. `lang` (a languages.ts id) is optional: in code languages
 * only quoted literals count for `password = ...` style assignments; without it, unquoted YAML/.env
 * values count too (the stricter reading).
 */
export function findSecretLines(text: string, lang?: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  let starts: number[] | undefined;
  const lines = () => (starts ??= lineStarts(text));
  const line = (offset: number) => lineAt(lines(), offset);
  const lastLine = () => lines().length - (/(?:\r\n|\n|\r)$/.test(text) ? 1 : 0);
  const present = triggersIn(text.toLowerCase());

  for (const rule of PATTERN_RULES) {
    if (rule.triggers.length && !rule.triggers.some((t) => present.has(t))) continue;
    if (rule.scan) {
      for (const [start, end] of rule.scan(text)) found.push({ startLine: line(start), endLine: line(Math.max(start, end - 1)), kind: rule.kind, rule: rule.id });
      continue;
    }
    rule.re.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = rule.re.exec(text)); ) {
      if (m[0].length === 0) rule.re.lastIndex++;
      if (rule.endMarker) {
        const marker = rule.endMarker(m);
        const end = text.indexOf(marker, m.index + m[0].length);
        if (!rule.blockAccept || rule.blockAccept(text.slice(m.index, end < 0 ? text.length : end))) {
          found.push({ startLine: line(m.index), endLine: end < 0 ? lastLine() : line(end), kind: rule.kind, rule: rule.id });
        }
        if (end < 0) break;
        rule.re.lastIndex = end + marker.length;
        continue;
      }
      const value = m[rule.value ?? 0] ?? m[0];
      if (rule.accept && !rule.accept(value, m)) continue;
      const l = line(m.index);
      found.push({ startLine: l, endLine: l, kind: rule.kind, rule: rule.id });
    }
  }

  // Lines a shape or a structure already flagged need no key rule; a context rule's guess leaves the key rules their say.
  const flagged = new Set(found.filter((f) => f.startLine === f.endLine && !CONTEXT_RULES.has(f.rule)).map((f) => f.startLine));
  const span = (l: number): [number, number] => {
    const st = lines();
    const end = l < st.length ? st[l] : text.length;
    let e = end;
    while (e > st[l - 1] && (text[e - 1] === '\n' || text[e - 1] === '\r')) e--;
    return [st[l - 1], e];
  };
  for (const k of findKeySecrets(text, lang, flagged, line, span)) found.push({ startLine: k.line, endLine: k.line, kind: k.rule.kind, rule: k.rule.id });

  found.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine || (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0));
  return found.filter(
    (f, i) => i === 0 || f.startLine !== found[i - 1].startLine || f.endLine !== found[i - 1].endLine || f.rule !== found[i - 1].rule,
  );
}

// Secret detection: the file-name denylist (layer a) and content rules (layer c: the table in
// secret-rules.ts, pattern rules matched here, key rules by secret-keys.ts). Layer b, the ignore
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

// Every rule's triggers found in one pass over the text, by their first two characters (with ~130
// triggers, one `includes` scan each cost ~20 ms on a 500 KiB file, one alternation regex 3–9 ms,
// this pass about 1–4 ms, on a loaded machine).
const TRIGGERS = [...new Set(PATTERN_RULES.flatMap((r) => r.triggers))];
/** Index: the first two characters' codes (c0 << 7 | c1); a hit is confirmed with startsWith. */
const PAIR_HIT = new Uint8Array(128 * 128);
const BY_PAIR = new Map<number, string[]>();
for (const t of TRIGGERS) {
  if (t.length < 2 || t.charCodeAt(0) > 127 || t.charCodeAt(1) > 127) throw new Error(`secret trigger "${t}" must start with 2 ASCII characters`);
  const key = (t.charCodeAt(0) << 7) | t.charCodeAt(1);
  PAIR_HIT[key] = 1;
  BY_PAIR.set(key, [...(BY_PAIR.get(key) ?? []), t]);
}

/** The triggers a (lower-cased) text holds. */
function triggersIn(lower: string): Set<string> {
  const present = new Set<string>();
  let c0 = lower.charCodeAt(0);
  for (let i = 1, n = lower.length; i < n; i++) {
    const c1 = lower.charCodeAt(i);
    const key = (c0 << 7) | c1; // a non-ASCII c1 may alias another pair: startsWith below decides
    c0 = c1;
    if (key >= PAIR_HIT.length || PAIR_HIT[key] === 0) continue;
    for (const t of BY_PAIR.get(key)!) if (!present.has(t) && lower.startsWith(t, i - 1)) present.add(t);
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
    rule.re.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = rule.re.exec(text)); ) {
      if (m[0].length === 0) rule.re.lastIndex++;
      if (rule.endMarker) {
        const marker = rule.endMarker(m);
        const end = text.indexOf(marker, m.index + m[0].length);
        found.push({ startLine: line(m.index), endLine: end < 0 ? lastLine() : line(end), kind: rule.kind, rule: rule.id });
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

  const flagged = new Set(found.filter((f) => f.startLine === f.endLine).map((f) => f.startLine));
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
    (f, i) => i === 0 || f.startLine !== found[i - 1].startLine || f.endLine !== found[i - 1].endLine || f.kind !== found[i - 1].kind,
  );
}

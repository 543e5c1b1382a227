// Secret detection: the file-name denylist (layer a) and content patterns (layer c). Layer b, the
// ignore rules, is the walker's. Content findings are line ranges and a kind only — the matched
// text is never returned, so nothing downstream can log it. Leaving chunks out is the indexer's job.
import { lineAt, lineStarts } from './content.ts';
import { LANGUAGES } from '../languages/table.ts';

// ---------------------------------------------------------------- layer a: file names

const SECRET_DIRS = new Set(['.ssh', '.aws', '.gnupg', '.kube']);
const SECRET_NAMES = new Set(['.env', '.npmrc', '.pypirc', '.netrc', '.git-credentials']);
const ENV_TEMPLATES = new Set(['.env.example', '.env.sample', '.env.template']);
const SECRET_NAME_PATTERN = /(?:\.(?:pem|key|p12|pfx|keystore|jks)$|^id_(?:rsa|ed25519|ecdsa|dsa))/;

/** True when a directory with this name holds credentials (.ssh, .aws, .gnupg, .kube). */
export function isSecretDirName(name: string): boolean {
  return SECRET_DIRS.has(name);
}

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
}

interface TokenRule {
  kind: string;
  /** Cheap substring check on the whole text before the regex runs (any of them). */
  triggers: string[];
  re: RegExp;
}

const TOKEN_RULES: TokenRule[] = [
  { kind: 'aws_access_key_id', triggers: ['AKIA', 'ASIA'], re: /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g },
  { kind: 'github_token', triggers: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], re: /\bgh[pousr]_[A-Za-z0-9]{36,}/g },
  { kind: 'github_token', triggers: ['github_pat_'], re: /\bgithub_pat_[A-Za-z0-9_]{22,}/g },
  { kind: 'gitlab_token', triggers: ['glpat-'], re: /\bglpat-[A-Za-z0-9_-]{20,}/g },
  { kind: 'slack_token', triggers: ['xox'], re: /\bxox[bpars]-[A-Za-z0-9-]{10,}/g },
  { kind: 'slack_webhook', triggers: ['hooks.slack.com'], re: /hooks\.slack\.com\/services\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/[A-Za-z0-9_]+/g },
  { kind: 'anthropic_key', triggers: ['sk-ant-'], re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: 'openai_key', triggers: ['sk-'], re: /\bsk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20,}\b)/g },
  { kind: 'stripe_key', triggers: ['_live_'], re: /\b[sr]k_live_[A-Za-z0-9]{10,}/g },
  { kind: 'google_api_key', triggers: ['AIza'], re: /\bAIza[0-9A-Za-z_-]{35}/g },
  { kind: 'jwt', triggers: ['eyJ'], re: /\beyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g },
  { kind: 'url_credentials', triggers: ['://'], re: /:\/\/[^\s:@/'"<>]+:([^\s@/'"<>]+)@/g },
];

const PEM_BEGIN = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g;

// One case-insensitive probe finds every secret-ish word; sticky checks right after it decide
// whether it ends the key of an assignment (= : := =>, or a C# auto-property initializer) or an XML name.
const KEYWORD_PROBE =
  /aws_?secret_?access_?key|password|passwd|pwd|secret[_-]?key|secret|api[_-]?key|access[_-]?token|auth[_-]?token/gi;
const AFTER_KEY = /(?![A-Za-z0-9_])["']?(?:[ \t]*\{[ \t]*get;[^}\r\n]*\})?[ \t]*(?:=>|:=|=(?!=)|:(?!:))[ \t]*/y;
const AFTER_XML = /(?![A-Za-z0-9_])(?:>|"[^>\r\n]*?\bvalue\s*=)/y;
const AWS_SECRET_VALUE = /["']?[ \t]*[:=][ \t]*["']?[A-Za-z0-9/+]{20,}/y;
const KEY_CHARS = /[A-Za-z0-9_.-]*$/;
const KEY_PREFIX = /^\s*(?:-\s+|export\s+)?["']?$/;
const QUOTED = /^[@$]?(["'])((?:\\.|(?!\1)[^\\])*)\1/;
const XML_ELEMENT =
  /<([A-Za-z0-9_.:-]*(?:password|pwd|secret|api[_-]?key|access[_-]?token))>([^<]+)<\/\1>/i;
const XML_ADD = /key\s*=\s*"[^"]*(?:password|pwd|secret|api[_-]?key|access[_-]?token)"[^>]*?\bvalue\s*=\s*"([^"]*)"/i;
const CONN_CONTEXT =
  /(?:^|[;"'\s])(?:server|data source|host|user id|uid|user|username|database|initial catalog|address|addr)\s*=/i;

/** Languages where an unquoted right-hand side is code (an expression), never a secret literal. */
const CODE_LANGS = new Set(LANGUAGES.filter((r) => r.code).map((r) => r.id));

/**
 * Values that are templates or well-known placeholders, not secrets. `changeme` (and friends) are
 * treated as placeholders: they are public knowledge, and flagging them would hide sample configs.
 */
const PLACEHOLDER_WORDS = new Set([
  'changeme', 'change_me', 'change-me', 'password', 'passwd', 'pwd', 'secret', 'example', 'sample', 'placeholder',
  'todo', 'tbd', 'none', 'null', 'nil', 'undefined', 'true', 'false', 'yes', 'no', 'string', 'redacted', 'dummy',
  'your_password', 'yourpassword', 'mypassword', 'my_password', 'test', 'empty',
]);
const PLACEHOLDER_SHAPES = [
  /^\$\{[^}]*\}$/, /^\$\{\{.*\}\}$/, /^\{\{.*\}\}$/, /^\{[^}]*\}$/, /^<[^>]*>$/, /^%[^%]+%$/, /^\$\(.*\)$/,
  /^\$[A-Za-z_][A-Za-z0-9_]*$/, /^#\{.*\}#?$/, /^__[A-Za-z0-9_]+__$/, /^[*xX.•-]+$/, /\byour[-_ ]/i, /^env\(/i,
];

function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (PLACEHOLDER_WORDS.has(v.toLowerCase())) return true;
  return PLACEHOLDER_SHAPES.some((re) => re.test(v));
}

/** An unquoted right-hand side that reads as a literal (YAML/.env/INI), not as code or a reference. */
function isBareLiteral(value: string): boolean {
  const v = value.replace(/\s+#.*$/, '').trim();
  if (v === '' || /^[!|>&*[{(<$%`@]/.test(v)) return false;
  if (/[;,(]$/.test(v) || v.includes('(') || v.includes('=>')) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+!?$/.test(v)) return false; // member access
  if (/^[A-Za-z_][A-Za-z0-9_.]*\[/.test(v)) return false; // indexer: env["X"], config['Y']
  return !isPlaceholder(v);
}

/**
 * Judges `<key> <sep> <rhs>` on one line. keyStart..keyEnd is the key (identifier chars before the
 * keyword included), rhs the rest of the line after the separator.
 */
function assignmentKind(line: string, keyStart: number, keyword: string, sep: string, rhs: string, lang: string | undefined): string | null {
  const before = line.slice(0, keyStart);
  // Connection strings: `…;Password=value;…` with other connection-string keys on the line.
  if (/^(?:password|pwd)$/i.test(keyword) && sep.trim() === '=' && /(?:^|[;"'\s])$/.test(before) &&
      line.includes(';') && CONN_CONTEXT.test(line)) {
    const value = /^[^;"'\r\n]*/.exec(rhs)![0];
    return isPlaceholder(value) ? null : 'connection_string_password';
  }
  const q = QUOTED.exec(rhs);
  if (q) return isPlaceholder(q[2]) ? null : 'generic_secret';
  if (/^[@$]?["']/.test(rhs)) return null; // an unterminated or multi-line string: not judged
  if (lang !== undefined && CODE_LANGS.has(lang)) return null;
  if (!KEY_PREFIX.test(before)) return null; // bare values only in `key: value` / `KEY=value` lines
  return isBareLiteral(rhs) ? 'generic_secret' : null;
}

function xmlKind(line: string): string | null {
  const xml = XML_ELEMENT.exec(line) ?? XML_ADD.exec(line);
  const value = xml ? xml[xml.length - 1] : undefined;
  return value !== undefined && !isPlaceholder(value) ? 'generic_secret' : null;
}

/**
 * Line ranges that look like secrets. `lang` (a languages.ts id) is optional: in code languages
 * only quoted literals count for `password = ...` style assignments; without it, unquoted YAML/.env
 * values count too (the stricter reading).
 */
export function findSecretLines(text: string, lang?: string): SecretFinding[] {
  const found: SecretFinding[] = [];
  let starts: number[] | undefined;
  const line = (offset: number) => lineAt((starts ??= lineStarts(text)), offset);

  if (text.includes('-----BEGIN ')) {
    PEM_BEGIN.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = PEM_BEGIN.exec(text)); ) {
      const endMarker = `-----END ${m[1]}-----`;
      const end = text.indexOf(endMarker, m.index + m[0].length);
      const startLine = line(m.index);
      const endLine = end < 0 ? (starts ??= lineStarts(text)).length - (/(?:\r\n|\n|\r)$/.test(text) ? 1 : 0) : line(end);
      found.push({ startLine, endLine, kind: 'private_key' });
      if (end < 0) break;
      PEM_BEGIN.lastIndex = end + endMarker.length;
    }
  }

  for (const rule of TOKEN_RULES) {
    if (!rule.triggers.some((t) => text.includes(t))) continue;
    rule.re.lastIndex = 0;
    for (let m: RegExpExecArray | null; (m = rule.re.exec(text)); ) {
      if (rule.kind === 'url_credentials' && isPlaceholder(m[1])) continue;
      const l = line(m.index);
      found.push({ startLine: l, endLine: l, kind: rule.kind });
    }
  }

  // Assignments: every keyword occurrence is checked in place; a line is reported at most once.
  KEYWORD_PROBE.lastIndex = 0;
  const flagged = new Set(found.map((f) => f.startLine));
  for (let m: RegExpExecArray | null; (m = KEYWORD_PROBE.exec(text)); ) {
    const keyEnd = m.index + m[0].length;
    const l = line(m.index);
    if (flagged.has(l)) continue;
    let kind: string | null = null;
    const lineStart = starts![l - 1];
    const lineText = () => text.slice(lineStart, l < starts!.length ? starts![l] : text.length).replace(/[\r\n]+$/, '');
    if (/^aws/i.test(m[0])) {
      AWS_SECRET_VALUE.lastIndex = keyEnd;
      if (AWS_SECRET_VALUE.test(text)) kind = 'aws_secret_access_key';
    } else {
      AFTER_KEY.lastIndex = keyEnd;
      const sep = AFTER_KEY.exec(text);
      if (sep) {
        const t = lineText();
        const keyStart = m.index - lineStart - KEY_CHARS.exec(t.slice(0, m.index - lineStart))![0].length;
        kind = assignmentKind(t, keyStart, m[0], sep[0], t.slice(AFTER_KEY.lastIndex - lineStart), lang);
      } else {
        AFTER_XML.lastIndex = keyEnd;
        if (AFTER_XML.test(text)) kind = xmlKind(lineText());
      }
    }
    if (kind) {
      found.push({ startLine: l, endLine: l, kind });
      flagged.add(l);
    }
  }

  found.sort((a, b) => a.startLine - b.startLine || a.endLine - b.endLine || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : 0));
  return found.filter(
    (f, i) => i === 0 || f.startLine !== found[i - 1].startLine || f.endLine !== found[i - 1].endLine || f.kind !== found[i - 1].kind,
  );
}

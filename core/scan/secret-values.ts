// Judging a candidate secret value on its own: how random it is (Shannon entropy), whether it is a
// template or a well-known placeholder, whether it has the shape of a token. Pure functions over
// one string; which values are candidates is the rules' business (secret-rules.ts, secret-keys.ts).

/** Shannon entropy of the string's characters, in bits per character. */
export function entropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = s.length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

/**
 * Values that are templates or well-known placeholders, not secrets. `changeme` (and friends) are
 * placeholders: they are public knowledge, and flagging them would hide sample configs.
 */
const PLACEHOLDER_WORDS = new Set([
  'changeme', 'change_me', 'change-me', 'password', 'passwd', 'pwd', 'secret', 'example', 'sample', 'placeholder',
  'todo', 'tbd', 'none', 'null', 'nil', 'undefined', 'true', 'false', 'yes', 'no', 'string', 'redacted', 'dummy',
  'your_password', 'yourpassword', 'mypassword', 'my_password', 'test', 'empty', 'token', 'apikey', 'api_key',
  // Dictionary defaults every scanner's wordlist opens with: public knowledge, and what samples and tests use.
  'pass', 'admin', 'root', 'guest', 'demo', 'default', 'letmein', 'qwerty', '123456', '12345678', 'password1', 'password123', 'pass123',
  'admin123', 'test123',
]);
const PLACEHOLDER_SHAPES = [
  /^\$\{[^}]*\}$/, /^\$\{\{.*\}\}$/, /^\{\{.*\}\}$/, /^\{[^}]*\}$/, /^<[^>]*>$/, /^%[^%]+%$/, /^\$\(.*\)$/,
  /^\$[A-Za-z_][A-Za-z0-9_]*$/, /^#\{.*\}#?$/, /^__[A-Za-z0-9_]+__$/, /^[*xX.•-]+$/, /\byour[-_ ]/i, /^env\(/i,
  /^\[[A-Za-z0-9_ -]+\]$/, /^@[A-Za-z0-9_]+@$/,
  // A version (a lock file's `registry-auth-token: 5.1.1`), a Razor expression (`ApiKey="@apiKey"`).
  /^[~^]?\d+(?:\.\d+){1,3}(?:-[\w.]+)?$/, /^@[A-Za-z_(][\w.()]*$/,
];

export function isPlaceholder(value: string): boolean {
  const v = value.trim();
  if (v === '') return true;
  if (PLACEHOLDER_WORDS.has(v.toLowerCase())) return true;
  return PLACEHOLDER_SHAPES.some((re) => re.test(v));
}

/** A run of one repeated character, or an obvious filler (`xxxx…`, `0000…`, `****…`, AWS's `…EXAMPLE`, `your-token`). */
function isFiller(v: string): boolean {
  return /^(.)\1+$/.test(v) || /x{6,}|X{6,}|0{8,}|\*{4,}|EXAMPLE|example|your[-_]/i.test(v);
}

/**
 * The variable part of a prefixed token (what follows `ghp_`, `npm_`, …): random enough, and not a
 * documentation filler such as `ghp_xxxxxxxx…` or `npm_00000000…`.
 */
export function randomEnough(v: string, minEntropy: number): boolean {
  return !isFiller(v) && entropy(v) >= minEntropy;
}

/**
 * A value under a secret-named key that reads as a machine-made credential rather than a word, a
 * path, a URL or code: token characters only, long enough, with letters and digits, random enough.
 */
export function tokenLike(v: string, minLength = 16, minEntropy = 3.5): boolean {
  if (v.length < minLength || !/^[A-Za-z0-9+/=_.~-]+$/.test(v)) return false;
  if (!/[0-9]/.test(v) || !/[A-Za-z]/.test(v)) return false;
  if (/^[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+$/.test(v)) return false; // a member access or a dotted name
  if (/^\d+(?:\.\d+)+(?:-[\w.]+)?$/.test(v)) return false; // a version
  if (/^[A-Za-z_]+[0-9]{0,4}$/.test(v)) return false; // a name with a number after it (ListItem12)
  // A GUID names things (a component key, a project, a tenant) far more often than it is a secret;
  // the provider rules that know a GUID-shaped secret (heroku, snyk…) say so themselves.
  if (/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v)) return false;
  return randomEnough(v, minEntropy);
}

// The table of content secret rules: every kind of secret hci recognises, one row each, with a
// stable id, the kind its findings report, how it is found, and a sample — lines it must flag and a
// near miss it must not (test/secrets-table.test.ts runs every row's sample; the indexing test builds
// one file per row from them). The providers are at least those of gitleaks' default rule set, and
// those of trufflehog's detectors and GitHub secret scanning that hci's users meet; the expressions
// are hci's own. Classes of evidence:
//   prefix     a token whose own text says what it is (`ghp_…`, `npm_…`, `SG.….…`, `AKIA…`), with a
//              minimum entropy of its variable part so documentation fillers (`ghp_xxxx…`) pass;
//   structure  a secret known by where it sits: a connection string's `AccountKey=`, a SAS `sig=`, a
//              URL's `user:pass@`, a PEM block, a command line's password flag (`sqlcmd -P`, `mysql
//              -p…`, `--password`), a literal piped into `--password-stdin`, a Kubernetes Secret's
//              `data:`, the secret argument of a credential constructor;
//   entropy    an opaque value where secrets go (`Bearer <token>`, an API-key header);
//   context    a value with no shape of its own (a bare Azure storage key, a Datadog key, a legacy
//              Azure DevOps PAT) next to words that say whose it is (storage, datadog, dev.azure.com)
//              within two lines, or base64 that decodes to `user:password`, whatever names it;
//   key        a secret-named key with a literal value (secret-keys.ts parses `key = value`, `key:
//              value`, `"key": "value"`, XML, Dockerfile `ENV`): strong names (password, secret,
//              api_key…) take any literal that is not a placeholder, weak ones (token, key,
//              credential…) a long token-like one (the entropy check), provider names (asana…token,
//              heroku…key) the provider's own value shape.
// Matching and line bookkeeping are secrets.ts's (pattern rules) and secret-keys.ts's (key rules).
import { isPlaceholder, randomEnough, tokenLike } from './secret-values.ts';

/** The file formats a sample's lines are written in (test/helpers/secret-fixture.ts wraps them in a file). */
export type SampleFormat = 'cs' | 'json' | 'yaml' | 'md' | 'gha' | 'azp' | 'xml' | 'sh' | 'docker' | 'env';

export interface Sample {
  in: SampleFormat;
  /**
   * Lines the rule must flag. «AN:36» stands for 36 random characters of a class — AN letters and
   * digits, UPAN upper-case and digits, LOWD lower-case and digits, ALPHA letters, D digits, HEX and
   * UHEX hex digits, AH a-h and digits, B64 base64, URL base64url, B32 and B32U base32, BECH32 —
   * «UUID» for a GUID, «BASIC» for base64 of `user:password`.
   */
  hit: string;
  /** A near miss nothing may flag. */
  miss: string;
}

/** A rule found by one regular expression over the text. */
export interface PatternRule {
  id: string;
  kind: string;
  class: 'prefix' | 'structure' | 'entropy' | 'context';
  /**
   * Lower-case substrings: the expression runs only over texts holding one of them (found in one
   * pass for all rules). Empty: always run — for rules whose cue is a common word (set, use, sk, ://),
   * which most files hold anyway.
   */
  triggers: string[];
  /** Global; `value` names the group holding the secret (0: the whole match). */
  re: RegExp;
  value?: number;
  /** Accepts the value (and the whole match); default: not a placeholder. */
  accept?: (value: string, m: RegExpExecArray) => boolean;
  /** A block rule: the finding runs from the match to the line holding this end marker (or the end of the text). */
  endMarker?: (m: RegExpExecArray) => string;
  /** A block rule: whether the block (from the match to its end marker) holds a secret. */
  blockAccept?: (block: string) => boolean;
  /** Instead of `re`: finds the secret's offset ranges itself (secrets spread by a document's structure). */
  scan?: (text: string) => Array<[start: number, end: number]>;
  sample: Sample;
}

/** A rule judged on `key <sep> value` (secret-keys.ts). */
export interface KeyRule {
  id: string;
  kind: string;
  class: 'key';
  /** The full key name must match (case-insensitive); omitted: any key ending in one of `words`. */
  key?: RegExp;
  /** The last word of the key, as the probe finds it (`api_key`, `token`…): which words this rule takes; omitted: any. */
  words?: readonly string[];
  /** `literal`: any literal but a placeholder; `token`: tokenLike; a RegExp: the value's exact shape. */
  value: 'literal' | 'token' | RegExp;
  /** Keys this rule never takes (names of non-secrets that end in a secret word: PublicKey, CacheKey…). */
  notKey?: RegExp;
  /** Only `…;Password=value;…` inside a connection string (other connection-string keys on the line). */
  form?: 'connection-string';
  sample: Sample;
}

export type SecretRule = PatternRule | KeyRule;

const L = '(?<![A-Za-z0-9_])';
const R = '(?![A-Za-z0-9_])';
const s = (format: SampleFormat, hit: string, miss: string): Sample => ({ in: format, hit, miss });

/**
 * A prefixed token: `head` (its fixed start) then `body`, whose randomness is checked. `triggers`
 * default to a literal head's own text (`npm_`, `SG\\.` -> `sg.`); a head with a class or a choice
 * (`gh[pousr]_`) names its triggers.
 */
function prefix(id: string, kind: string, head: string, body: string, minEntropy: number, sample: Sample, triggers = [literalText(id, head)]): PatternRule {
  return { id, kind, class: 'prefix', triggers, re: new RegExp(`${L}${head}(${body})${R}`, 'g'), value: 1, accept: (v) => randomEnough(v, minEntropy), sample };
}

/** A head without classes, groups, choices or quantifiers, as the text it matches (lower case). */
function literalText(id: string, head: string): string {
  if (!/^(?:[^\\[\](){}.*+?^$|]|\\[.$])+$/.test(head)) throw new Error(`secret rule ${id}: a head that is not literal text names its triggers`);
  return head.replace(/\\(.)/g, '$1').toLowerCase();
}

const notPlaceholder = (v: string) => !isPlaceholder(v) && !/^\$|^%\w+%$|^\{\{|^\$\(/.test(v);
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const uuid = new RegExp(`^${UUID}$`);

/** `user:password` in base64 (HTTP Basic, a Docker config's `auth`, .npmrc's `_auth`): decodes to printable text with a colon and both sides. */
function basicCredentials(v: string): boolean {
  let decoded: string;
  try {
    decoded = atob(v.length % 4 ? v + '='.repeat(4 - (v.length % 4)) : v);
  } catch {
    return false;
  }
  const i = decoded.indexOf(':');
  return /^[\x20-\x7e]+$/.test(decoded) && i > 0 && i < decoded.length - 1 && !isPlaceholder(decoded.slice(i + 1));
}

/** A Discord bot token's first part is a user id (a snowflake) in base64: digits only. */
function discordBotToken(v: string): boolean {
  try {
    return /^\d{17,20}$/.test(atob(v.split('.')[0].replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((v.split('.')[0].length + 3) % 4)));
  } catch {
    return false;
  }
}

/** `scan`, run only on a text where `possible` holds: a cheap necessary condition of its shape, so no match is lost. */
function onlyIf(possible: (text: string) => boolean, scan: (text: string) => Array<[number, number]>): (text: string) => Array<[number, number]> {
  return (text) => (possible(text) ? scan(text) : []);
}

/**
 * Whether `==` follows a base64 character at offset `length` or later: what a padded base64 value of
 * `length` characters needs. The 86-character shape's regex (a lookbehind tried at every offset, each
 * start running along the identifier it sits in) was a third of the secret scan's CPU on
 * AvaloniaUI/Avalonia, where 12 of 4,076 C# files have a base64 character before a `==`: the others skip it.
 */
function paddedBase64Possible(text: string, length: number): boolean {
  for (let p = text.indexOf('==', length); p >= 0; p = text.indexOf('==', p + 1)) {
    const c = text.charCodeAt(p - 1);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 47) return true;
  }
  return false;
}

/**
 * A context rule's scan: every `shape` match (group 1, or the whole match) that `accept` takes and
 * that has a line matching `context` within `reach` lines of it (its own line counted, the value
 * itself left out, so a value never supplies its own context).
 */
function nearContext(shape: RegExp, context: RegExp, accept: (v: string) => boolean, reach = 2): (text: string) => Array<[number, number]> {
  return (text) => {
    const out: Array<[number, number]> = [];
    for (const m of text.matchAll(shape)) {
      const v = m[1] ?? m[0];
      const start = m.index! + m[0].indexOf(v);
      if (!accept(v)) continue;
      let a = start;
      for (let k = 0; k <= reach && a > 0; k++) a = Math.max(0, text.lastIndexOf('\n', a - 1));
      let b = start + v.length;
      for (let k = 0; k <= reach && b < text.length; k++) {
        const nl = text.indexOf('\n', k === 0 ? b : b + 1);
        b = nl < 0 ? text.length : nl;
      }
      if (context.test(text.slice(a, start) + ' ' + text.slice(start + v.length, b))) out.push([start, start + v.length]);
    }
    return out;
  };
}

/** Base64 written as a literal (quoted, or a bare `key: value`/`key=value` to the end of a line) that decodes to `user:password`. */
function bareBasicCredentials(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const m of text.matchAll(/(?:(["'`])([A-Za-z0-9+/]{12,}={0,2})\1|[:=][ \t]*([A-Za-z0-9+/]{12,}={0,2})[ \t]*(?=\r?\n|$))/g)) {
    const v = m[2] ?? m[3];
    if (!strictBasic(v)) continue;
    const start = m.index! + m[0].indexOf(v);
    out.push([start, start + v.length]);
  }
  return out;
}

/** Stricter than basicCredentials: a user name of name characters, a password of 6+ printable characters with a letter and a digit or a symbol, no URL. */
function strictBasic(v: string): boolean {
  if (v.length % 4 === 1) return false;
  let decoded: string;
  try {
    decoded = atob(v.length % 4 ? v + '='.repeat(4 - (v.length % 4)) : v);
  } catch {
    return false;
  }
  const m = /^([A-Za-z0-9._@+-]{1,64}):([\x21-\x7e]{6,128})$/.exec(decoded);
  if (!m || /^\/\//.test(m[2]) || /^(?:https?|ftp|file|urn|mailto|data|[a-z]:)$/i.test(m[1])) return false;
  const pw = m[2];
  return !isPlaceholder(pw) && /[A-Za-z]/.test(pw) && /[^A-Za-z]/.test(pw) && randomEnough(pw, 2.5);
}

// ------------------------------------------------------------ document rules

/**
 * Kubernetes Secrets (YAML): in a document whose `kind` is Secret, every value under `data:` and
 * `stringData:` — base64 or plain text, whatever its key is called.
 */
function kubernetesSecretData(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const bounds = [0, ...[...text.matchAll(/^---[ \t]*$/gm)].map((m) => m.index! + m[0].length), text.length];
  for (let d = 0; d + 1 < bounds.length; d++) {
    const doc = text.slice(bounds[d], bounds[d + 1]);
    if (!/^kind:[ \t]*["']?Secret["']?[ \t]*$/m.test(doc)) continue;
    for (const m of doc.matchAll(/^(?:data|stringData):[ \t]*\r?\n((?:(?:[ \t]+[^\r\n]*|[ \t]*)(?:\r?\n|$))+)/gm)) {
      const block = bounds[d] + m.index! + m[0].length - m[1].length;
      for (const line of m[1].matchAll(/^([ \t]+)[\w.-]+:[ \t]*(?:[|>][-+]?[ \t]*\r?\n(?:\1[ \t]+[^\r\n]*(?:\r?\n|$))+|["']?([^\r\n"'#]+?)["']?[ \t]*(?:#[^\r\n]*)?(?:\r?\n|$))/gm)) {
        const value = line[2];
        if (value !== undefined && (isPlaceholder(value) || /^\{\{|^\$/.test(value))) continue;
        out.push([block + line.index!, block + line.index! + line[0].trimEnd().length]);
      }
    }
  }
  return out;
}

export const PATTERN_RULES: readonly PatternRule[] = [
  // ------------------------------------------------------------ structure: key material
  {
    id: 'private-key', kind: 'private_key', class: 'structure', triggers: ['-----begin '],
    re: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g, endMarker: (m) => `-----END ${m[1]}-----`,
    sample: s('md', '```text\n-----BEGIN RSA PRIVATE' + ' KEY-----\nMIIEowIBAAKCAQEA«B64:48»\n«B64:64»\n-----END RSA PRIVATE' + ' KEY-----\n```', '```text\n-----BEGIN PUBLIC' + ' KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC' + ' KEY-----\n```'),
  },
  {
    id: 'putty-private-key', kind: 'private_key', class: 'structure', triggers: ['putty-user-key-file-'],
    re: /PuTTY-User-Key-File-\d+: /g, endMarker: () => 'Private-MAC: ',
    sample: s('md', '```text\nPuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\n«B64:64»\nPrivate-MAC: «HEX:40»\n```', 'Convert it with PuTTYgen (File > Save private key).'),
  },
  {
    // .NET's RSA.ToXmlString(true): the private parameters (D, P, Q…) make it a private key.
    id: 'dotnet-rsa-private-key', kind: 'private_key', class: 'structure', triggers: ['<rsakeyvalue>'],
    re: /<RSAKeyValue>/g, endMarker: () => '</RSAKeyValue>', blockAccept: (b) => /<(?:D|P|Q|DP|DQ|InverseQ)>[A-Za-z0-9+/=\s]{16,}</.test(b),
    sample: s('cs', '    const string v = "<RSAKeyValue><Modulus>«B64:86»==</Modulus><Exponent>AQAB</Exponent><P>«B64:42»==</P><Q>«B64:42»==</Q><D>«B64:86»==</D></RSAKeyValue>";',
      '    const string v = "<RSAKeyValue><Modulus>«B64:86»==</Modulus><Exponent>AQAB</Exponent></RSAKeyValue>";'),
  },
  {
    id: 'jwk-private-key', kind: 'private_key', class: 'structure', triggers: ['"kty"'],
    re: /"d"\s*:\s*"([A-Za-z0-9_-]{32,})"/g, value: 1, accept: (v) => randomEnough(v, 4),
    sample: s('json', '"keys": [{ "kty": "EC", "crv": "P-256", "x": "«URL:43»", "y": "«URL:43»", "d": "«URL:43»" }]', '"keys": [{ "kty": "EC", "crv": "P-256", "x": "«URL:43»", "y": "«URL:43»" }]'),
  },
  prefix('age-secret-key', 'age_secret_key', 'AGE-SECRET-KEY-1', '[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}', 3,
    s('md', '```text\nAGE-SECRET-KEY-1«BECH32:58»\n```', 'Keys start with AGE-SECRET-KEY-1 followed by 58 characters.')),
  prefix('onepassword-secret-key', 'onepassword_secret_key', 'A3-', '[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}', 3.5,
    s('md', 'Recovery kit: A3-«UPAN:6»-«UPAN:6»-«UPAN:5»-«UPAN:5»-«UPAN:5»-«UPAN:5»', 'The secret key looks like A3-XXXXXX-XXXXXX-XXXXX-XXXXX-XXXXX-XXXXX.')),
  prefix('onepassword-service-token', 'onepassword_token', 'ops_', 'eyJ[A-Za-z0-9+/]{250,}={0,3}', 4,
    s('yaml', 'value: ops_eyJ«B64:260»', 'value: ops_eyJ<your service account token>'), ['ops_eyj']),

  // ------------------------------------------------------------ prefix: cloud providers
  prefix('aws-access-key-id', 'aws_access_key_id', '(?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)', '[A-Z2-7]{16}', 3,
    s('cs', '    public const string V = "AKIA«B32U:16»";', '    public const string V = "AKIAIOSFODNN7EXAMPLE";'), ['akia', 'asia', 'abia', 'acca', 'a3t']),
  prefix('aws-session-token', 'aws_session_token', '(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz|FQoGZXIvYXdz)', '[A-Za-z0-9+/]{100,}={0,2}', 4,
    s('json', '"value": "IQoJb3JpZ2luX2VjE«B64:300»"', '"value": "IQoJb3JpZ2luX2VjE..."'), ['iqojb3jpz2lux2vj', 'fwogzxivyxdz', 'fqogzxivyxdz']),
  prefix('aws-bedrock-api-key', 'aws_bedrock_api_key', 'ABSK', '[A-Za-z0-9+/]{109,269}={0,2}', 4,
    s('yaml', 'value: ABSK«B64:132»', 'value: ABSK0000')),
  prefix('aws-bedrock-short-term-key', 'aws_bedrock_api_key', 'bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t', '[A-Za-z0-9+/=%_-]{40,}', 4,
    s('cs', '    var v = "bedrock-api-key-YmVkcm9jay5hbWF6b25hd3MuY29t«B64:120»";', '    // keys look like bedrock-api-key-<base64>'), ['bedrock-api-key-']),
  prefix('gcp-api-key', 'google_api_key', 'AIza', '[0-9A-Za-z_-]{35}', 3.5,
    s('json', '"value": "AIza«URL:35»"', '"value": "AIzaSy..."')),
  prefix('google-oauth-client-secret', 'google_oauth_client_secret', 'GOCSPX-', '[A-Za-z0-9_-]{28}', 3,
    s('json', '"value": "GOCSPX-«URL:28»"', '"value": "GOCSPX-<secret>"')),
  prefix('firebase-cloud-messaging-key', 'firebase_fcm_server_key', 'AAAA[A-Za-z0-9_-]{7}:APA91b', '[A-Za-z0-9_-]{130,}', 3,
    s('cs', '    public const string V = "AAAA«URL:7»:APA91b«URL:134»";', '    public const string V = "AAAA:APA91b";'), [':apa91b']),
  prefix('alibaba-access-key-id', 'alibaba_access_key_id', 'LTAI', '[A-Za-z0-9]{20}', 3,
    s('yaml', 'value: LTAI«AN:20»', 'value: LTAI_placeholder')),
  prefix('digitalocean-token', 'digitalocean_token', 'do[opr]_v1_', '[a-f0-9]{64}', 3,
    s('gha', '      - run: doctl auth init -t dop_v1_«HEX:64»', '      - run: doctl auth init -t ${{ secrets.DO_TOKEN }}'), ['_v1_']),
  prefix('heroku-api-key-v2', 'heroku_api_key', 'HRKU-AA', '[0-9a-zA-Z_-]{58}', 3,
    s('md', '```sh\nheroku container:login --key HRKU-AA«URL:58»\n```', '```sh\nheroku container:login\n```')),
  prefix('azure-devops-pat', 'azure_devops_pat', '', '[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}', 4,
    s('azp', '- script: az devops login --organization https://dev.azure.com/contoso < <(echo «AN:76»AZDO«AN:4»)', '- script: az devops login --organization https://dev.azure.com/contoso'), ['azdo']),
  {
    id: 'azure-ad-client-secret', kind: 'azure_ad_client_secret', class: 'prefix', triggers: ['0q~', '1q~', '2q~', '3q~', '4q~', '5q~', '6q~', '7q~', '8q~', '9q~'],
    re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, accept: (v) => randomEnough(v, 3.5),
    sample: s('json', '"value": "«AN:3»8Q~«AN:34»"', '"value": "abc8Q~"'),
  },
  prefix('flyio-token', 'flyio_token', '(?:fo1_|fm1[ar]_|fm2_)', '[A-Za-z0-9+/_-]{43,}={0,3}', 4,
    s('gha', '      - run: flyctl deploy --access-token fo1_«URL:43»', '      - run: flyctl deploy --access-token ${{ secrets.FLY_API_TOKEN }}'), ['fo1_', 'fm1a_', 'fm1r_', 'fm2_']),
  prefix('clickhouse-cloud-key', 'clickhouse_key', '4b1d', '[A-Za-z0-9]{38}', 3.5,
    s('yaml', 'value: 4b1d«AN:38»', 'value: 4b1d')),
  prefix('scalingo-token', 'scalingo_token', 'tk-us-', '[A-Za-z0-9_-]{48}', 3.5,
    s('yaml', 'value: tk-us-«URL:48»', 'value: tk-us-')),
  prefix('openshift-user-token', 'openshift_token', 'sha256~', '[A-Za-z0-9_-]{43}', 3.5,
    s('md', '```sh\noc login --token=sha256~«URL:43» --server=https://api.example.com:6443\n```', '```sh\noc login --token=sha256~<token> --server=https://api.example.com:6443\n```')),
  prefix('defined-networking-token', 'defined_networking_token', 'dnkey-', '[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}', 3.5,
    s('yaml', 'value: dnkey-«URL:26»-«URL:52»', 'value: dnkey-')),
  prefix('infracost-token', 'infracost_token', 'ico-', '[A-Za-z0-9]{32}', 3.5,
    s('gha', '      - run: infracost configure set api_key ico-«AN:32»', '      - run: infracost configure set api_key ${{ secrets.INFRACOST_API_KEY }}')),
  prefix('yandex-api-key', 'yandex_key', 'AQVN', '[A-Za-z0-9_-]{35,38}', 3.5,
    s('json', '"value": "AQVN«URL:36»"', '"value": "AQVN"')),
  prefix('yandex-iam-token', 'yandex_key', 't1\\.', '[A-Za-z0-9_-]+={0,2}\\.[A-Za-z0-9_-]{86}={0,2}', 4,
    s('json', '"value": "t1.«URL:40».«URL:86»"', '"value": "t1.x"')),

  // ------------------------------------------------------------ prefix: code hosting, CI, registries
  prefix('github-token', 'github_token', 'gh[pousr]_', '[A-Za-z0-9]{36,255}', 3,
    s('gha', '      - run: gh auth login --with-token <<< ghp_«AN:36»', '      - run: gh auth login --with-token <<< ${{ secrets.GH_PAT }}'), ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_']),
  prefix('github-fine-grained-pat', 'github_token', 'github_pat_', '[A-Za-z0-9_]{22,255}', 3,
    s('md', 'Use `github_pat_«AN:22»_«AN:59»` for the mirror job.', 'Fine-grained tokens start with `github_pat_`.')),
  prefix('gitlab-token', 'gitlab_token',
    'gl(?:pat|dt|rt|ptt|cbt|ft|soat|oas|agent|imt|ffct)-', '[A-Za-z0-9_.-]{20,}', 3,
    s('yaml', 'value: glpat-«URL:20»', 'value: glpat-xxxxxxxxxxxxxxxxxxxx'), ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glft-', 'glsoat-', 'gloas-', 'glagent-', 'glimt-', 'glffct-']),
  prefix('gitlab-runner-registration-token', 'gitlab_token', 'GR1348941', '[A-Za-z0-9_-]{20}', 3,
    s('sh', 'gitlab-runner register --non-interactive --url https://gitlab.com --token GR1348941«URL:20»', 'gitlab-runner register --non-interactive --url https://gitlab.com --token "$REGISTRATION_TOKEN"')),
  {
    id: 'gitlab-session-cookie', kind: 'gitlab_session', class: 'structure', triggers: ['_gitlab_session='],
    re: /_gitlab_session=([0-9a-z]{32})/g, value: 1, accept: (v) => randomEnough(v, 3),
    sample: s('sh', 'curl -b "_gitlab_session=«LOWD:32»" https://gitlab.example.com/api/v4/projects', 'curl -b "_gitlab_session=$SESSION" https://gitlab.example.com/api/v4/projects'),
  },
  prefix('bitbucket-app-password', 'bitbucket_token', 'ATBB', '[A-Za-z0-9_=.-]{32,}', 3.5,
    s('yaml', 'value: ATBB«AN:32»«UHEX:8»', 'value: ATBB')),
  prefix('atlassian-api-token', 'atlassian_token', '(?:ATATT3|ATCTT3|ATCATT)', '[A-Za-z0-9_=-]{60,}', 4,
    s('yaml', 'value: ATATT3xFfGF0«URL:170»=«UHEX:8»', 'value: ATATT3<token>'), ['atatt3', 'atctt3', 'atcatt']),
  prefix('npm-access-token', 'npm_token', 'npm_', '[A-Za-z0-9]{36}', 3,
    s('cs', '    public const string V = "npm_«AN:36»";', '    public const string V = "npm_install";')),
  prefix('nuget-api-key', 'nuget_api_key', 'oy2', '[a-z0-9]{43}', 3.5,
    s('azp', '- script: dotnet nuget push out/*.nupkg -k oy2«LOWD:43» -s https://api.nuget.org/v3/index.json', '- script: dotnet nuget push out/*.nupkg -k $(NUGET_API_KEY) -s https://api.nuget.org/v3/index.json')),
  prefix('pypi-upload-token', 'pypi_token', 'pypi-AgEIcHlwaS5vcmc', '[A-Za-z0-9_-]{50,}', 3,
    s('gha', '      - run: twine upload -p pypi-AgEIcHlwaS5vcmc«URL:70» dist/*', '      - run: twine upload -p ${{ secrets.PYPI }} dist/*')),
  prefix('rubygems-api-key', 'rubygems_token', 'rubygems_', '[a-f0-9]{48}', 3,
    s('yaml', 'value: rubygems_«HEX:48»', 'value: rubygems_')),
  prefix('clojars-token', 'clojars_token', 'CLOJARS_', '[a-z0-9]{60}', 3.5,
    s('yaml', 'value: CLOJARS_«LOWD:60»', 'value: CLOJARS_USERNAME')),
  prefix('docker-hub-pat', 'docker_hub_token', 'dckr_pat_', '[A-Za-z0-9_-]{27,}', 3,
    s('gha', '      - run: echo dckr_pat_«URL:27» | docker login -u ci --password-stdin', '      - run: echo "$DOCKERHUB_TOKEN" | docker login -u ci --password-stdin')),
  prefix('artifactory-api-key', 'artifactory_token', 'AKCp', '[A-Za-z0-9]{69}', 4,
    s('json', '"value": "AKCp«AN:69»"', '"value": "AKCp"')),
  prefix('artifactory-reference-token', 'artifactory_token', 'cmVmd', '[A-Za-z0-9]{59}', 4,
    s('yaml', 'value: cmVmd«AN:59»', 'value: cmVmdGVzdA')),
  prefix('octopus-deploy-api-key', 'octopus_api_key', 'API-', '[A-Z0-9]{26}', 3.5,
    s('azp', '- script: octo push --package app.zip --apiKey API-«UPAN:26»', '- script: octo push --package app.zip --apiKey $(OctopusApiKey)')),
  prefix('sonarqube-token', 'sonarqube_token', 'sq[upa]_', '[a-f0-9]{40}', 3,
    s('azp', '- script: dotnet sonarscanner begin /d:sonar.login=squ_«HEX:40»', '- script: dotnet sonarscanner begin /d:sonar.login=$(SONAR_TOKEN)'), ['squ_', 'sqp_', 'sqa_']),
  prefix('terraform-cloud-token', 'terraform_cloud_token', '[A-Za-z0-9]{14}\\.atlasv1\\.', '[A-Za-z0-9_=-]{60,70}', 3,
    s('md', '```hcl\ncredentials "app.terraform.io" { value = "«AN:14».atlasv1.«URL:67»" }\n```', '```hcl\ncredentials "app.terraform.io" { value = var.tfc_token }\n```'), ['.atlasv1.']),
  prefix('vault-token', 'vault_token', '(?:hvs|hvb)\\.', '[A-Za-z0-9_-]{90,300}', 4,
    s('yaml', 'value: hvs.«URL:95»', 'value: hvs.'), ['hvs.', 'hvb.']),
  prefix('pulumi-access-token', 'pulumi_token', 'pul-', '[a-f0-9]{40}', 3,
    s('gha', '      - run: pulumi login --access pul-«HEX:40»', '      - run: pulumi login')),
  prefix('harness-token', 'harness_token', '(?:pat|sat)\\.', '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.[A-Za-z0-9]{20}', 3.5,
    s('yaml', 'value: pat.«URL:22».«AN:24».«AN:20»', 'value: pat.x.y.z'), ['pat.', 'sat.']),
  prefix('prefect-token', 'prefect_token', 'pnu_', '[A-Za-z0-9]{36}', 3.5,
    s('sh', 'prefect cloud login --key pnu_«AN:36» --workspace acme/prod', 'prefect cloud login --key "$PREFECT_API_KEY" --workspace acme/prod')),
  prefix('databricks-token', 'databricks_token', 'dapi', '[a-f0-9]{32}(?:-\\d)?', 3,
    s('json', '"value": "dapi«HEX:32»"', '"value": "dapi"')),
  prefix('postman-api-key', 'postman_api_key', 'PMAK-', '[a-f0-9]{24}-[a-f0-9]{34}', 3,
    s('md', 'Postman: PMAK-«HEX:24»-«HEX:34»', 'Postman keys start with PMAK-.')),
  prefix('readme-token', 'readme_token', 'rdme_', '[a-z0-9]{70}', 3.5,
    s('sh', 'rdme openapi spec.json --key rdme_«LOWD:70»', 'rdme openapi spec.json --key "$README_API_KEY"')),
  prefix('grafana-cloud-token', 'grafana_token', 'glc_', '[A-Za-z0-9+/]{32,400}={0,3}', 3,
    s('yaml', 'value: glc_«AN:60»', 'value: glc_')),
  prefix('grafana-service-account-token', 'grafana_token', 'glsa_', '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}', 3,
    s('json', '"value": "glsa_«AN:32»_«HEX:8»"', '"value": "glsa_"')),
  prefix('grafana-api-key', 'grafana_token', 'eyJrIjoi', '[A-Za-z0-9]{70,400}={0,3}', 3.5,
    s('json', '"value": "eyJrIjoi«AN:90»"', '"value": "eyJrIjoi"')),
  prefix('new-relic-key', 'newrelic_key', 'NR(?:AK|II|JS)-', '[A-Za-z0-9_-]{19,32}', 3,
    s('cs', '    public const string V = "NRAK-«UPAN:27»";', '    public const string V = "NRAK-";'), ['nrak-', 'nrii-', 'nrjs-']),
  prefix('sentry-token', 'sentry_token', 'sntry[su]_', '[A-Za-z0-9+/=_]{64,}', 3,
    s('yaml', 'value: sntryu_«HEX:64»', 'value: sntryu_'), ['sntrys_', 'sntryu_']),
  prefix('dynatrace-token', 'dynatrace_token', 'dt0c01\\.', '[A-Z0-9]{24}\\.[A-Z0-9]{64}', 3,
    s('json', '"value": "dt0c01.«UPAN:24».«UPAN:64»"', '"value": "dt0c01."')),
  prefix('doppler-token', 'doppler_token', 'dp\\.(?:pt|st|sa|ct|scim|audit)\\.', '[A-Za-z0-9]{40,44}', 3,
    s('gha', '      - run: doppler run --token dp.pt.«AN:43» -- ./deploy.sh', '      - run: doppler run -- ./deploy.sh'), ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.']),
  prefix('linear-api-key', 'linear_api_key', 'lin_api_', '[A-Za-z0-9]{40}', 3,
    s('md', 'Linear: lin_api_«AN:40»', 'Linear keys start with lin_api_.')),
  prefix('figma-token', 'figma_token', 'figd_', '[A-Za-z0-9_-]{40}', 3,
    s('json', '"value": "figd_«URL:40»"', '"value": "figd_"')),
  prefix('supabase-token', 'supabase_token', 'sbp_', '[a-f0-9]{40}', 3,
    s('gha', '      - run: supabase login --token sbp_«HEX:40»', '      - run: supabase login')),
  prefix('planetscale-token', 'planetscale_token', 'pscale_(?:tkn|pw|oauth)_', '[A-Za-z0-9_.=-]{32,64}', 3,
    s('yaml', 'value: pscale_tkn_«URL:43»', 'value: pscale_tkn_'), ['pscale_']),
  prefix('notion-token', 'notion_token', 'ntn_', '[0-9]{11}[A-Za-z0-9]{35}', 3,
    s('md', 'Notion integration: ntn_«D:11»«AN:35»', 'Notion integrations start with ntn_.')),
  prefix('notion-legacy-token', 'notion_token', 'secret_', '[A-Za-z0-9]{43}', 4,
    s('json', '"value": "secret_«AN:43»"', '"value": "secret_santa_list"')),
  prefix('sourcegraph-token', 'sourcegraph_token', 'sgp_', '(?:[a-f0-9]{16}_|local_)?[a-f0-9]{40}', 3,
    s('json', '"value": "sgp_«HEX:16»_«HEX:40»"', '"value": "sgp_"')),
  prefix('typeform-token', 'typeform_token', 'tfp_', '[A-Za-z0-9_.=-]{59}', 3.5,
    s('yaml', 'value: tfp_«URL:59»', 'value: tfp_')),
  prefix('cloudflare-origin-ca-key', 'cloudflare_origin_ca_key', 'v1\\.0-', '[a-f0-9]{24}-[a-f0-9]{146}', 3,
    s('md', 'Origin CA: v1.0-«HEX:24»-«HEX:146»', 'Origin CA keys start with v1.0-.')),
  prefix('netlify-token', 'netlify_token', 'nfp_', '[A-Za-z0-9]{36,40}', 3.5,
    s('gha', '      - run: netlify deploy --prod --auth nfp_«AN:40»', '      - run: netlify deploy --prod')),
  prefix('authress-key', 'authress_key', '(?:sc|ext|scauth|authress)_', '[A-Za-z0-9]{5,30}\\.[A-Za-z0-9]{4,6}\\.acc[_-][A-Za-z0-9-]{10,32}\\.[A-Za-z0-9+/_=-]{30,120}', 3.5,
    s('yaml', 'value: sc_«AN:12».«AN:5».acc_«AN:20».«URL:64»', 'value: sc_x'), ['sc_', 'ext_', 'scauth_', 'authress_']),
  prefix('intra42-client-secret', 'intra42_secret', 's-s4t2(?:ud|af)-', '[a-f0-9]{64}', 3,
    s('yaml', 'value: s-s4t2ud-«HEX:64»', 'value: s-s4t2ud-'), ['s-s4t2']),
  prefix('settlemint-token', 'settlemint_token', 'sm_(?:aat|pat|sat)_', '[A-Za-z0-9]{16}', 3,
    s('yaml', 'value: sm_pat_«AN:16»', 'value: sm_pat_'), ['sm_aat_', 'sm_pat_', 'sm_sat_']),
  prefix('maxmind-license-key', 'maxmind_key', '', '[A-Za-z0-9]{6}_[A-Za-z0-9]{29}_mmk', 4,
    s('json', '"value": "«AN:6»_«AN:29»_mmk"', '"value": "_mmk"'), ['_mmk']),
  prefix('adafruit-io-key', 'adafruit_key', 'aio_', '[A-Za-z0-9]{28}', 3.5,
    s('yaml', 'value: aio_«AN:28»', 'value: aio_')),
  prefix('airtable-pat', 'airtable_token', 'pat', '[A-Za-z0-9]{14}\\.[a-f0-9]{64}', 3.5,
    s('json', '"value": "pat«AN:14».«HEX:64»"', '"value": "pattern.matches"')),
  prefix('dropbox-short-lived-token', 'dropbox_token', 'sl\\.(?:[A-Za-z]\\.)?', '[A-Za-z0-9_=-]{130,}', 4.5,
    s('cs', '    var v = "sl.«URL:140»";', '    var v = "sl.Settings.Load";'), ['sl.']),
  prefix('asana-pat', 'asana_token', '[12]/', '[0-9]{13,16}(?:/[0-9]{13,16})?:[A-Za-z0-9]{32}', 3.5,
    s('sh', 'curl -H "Authorization: Bearer 2/«D:16»/«D:16»:«HEX:32»" https://app.asana.com/api/1.0/users/me', 'curl https://app.asana.com/api/1.0/users/me'), []),
  prefix('launchdarkly-token', 'launchdarkly_token', '(?:api|sdk)-', UUID, 3.5,
    s('json', '"value": "sdk-«UUID»"', '"value": "sdk-version"'), ['api-', 'sdk-']),
  prefix('plaid-access-token', 'plaid_token', 'access-(?:sandbox|development|production)-', UUID, 3,
    s('json', '"value": "access-sandbox-«UUID»"', '"value": "access-sandbox-"'), ['access-sandbox-', 'access-development-', 'access-production-']),
  prefix('duffel-token', 'duffel_token', 'duffel_(?:test|live)_', '[A-Za-z0-9_=-]{43}', 3.5,
    s('yaml', 'value: duffel_test_«URL:43»', 'value: duffel_test_'), ['duffel_']),
  prefix('frameio-token', 'frameio_token', 'fio-u-', '[A-Za-z0-9_=-]{64}', 3.5,
    s('yaml', 'value: fio-u-«URL:64»', 'value: fio-u-')),
  prefix('circleci-pat', 'circleci_token', 'CCIPAT_', '[A-Za-z0-9]{22}_[a-f0-9]{40}', 3.5,
    s('yaml', 'value: CCIPAT_«AN:22»_«HEX:40»', 'value: CCIPAT_')),

  // ------------------------------------------------------------ prefix: AI platforms
  prefix('anthropic-api-key', 'anthropic_key', 'sk-ant-', '[A-Za-z0-9_-]{20,}', 3,
    s('cs', '    public const string V = "sk-ant-api03-«URL:93»AA";', '    public const string V = "sk-ant-...";')),
  {
    id: 'openai-api-key', kind: 'openai_key', class: 'prefix', triggers: ['sk-'],
    re: /(?<![A-Za-z0-9_-])sk-((?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20,}(?![A-Za-z0-9_-]))/g, value: 1, accept: (v) => randomEnough(v, 3),
    sample: s('json', '"value": "sk-proj-«URL:58»T3BlbkFJ«URL:58»"', '"value": "sk-proj-..."'),
  },
  prefix('groq-api-key', 'groq_api_key', 'gsk_', '[A-Za-z0-9]{52}', 3,
    s('yaml', 'value: gsk_«AN:52»', 'value: gsk_')),
  prefix('xai-api-key', 'xai_api_key', 'xai-', '[A-Za-z0-9]{80}', 3,
    s('md', 'Grok: xai-«AN:80»', 'Grok keys start with xai-.')),
  prefix('perplexity-api-key', 'perplexity_api_key', 'pplx-', '[A-Za-z0-9]{48}', 3,
    s('json', '"value": "pplx-«AN:48»"', '"value": "pplx-"')),
  prefix('huggingface-token', 'huggingface_token', '(?:hf_|api_org_)', '[A-Za-z0-9]{30,40}', 3.5,
    s('cs', '    public const string V = "hf_«ALPHA:34»";', '    public const string V = "hf_hub_download";'), ['hf_', 'api_org_']),
  prefix('replicate-token', 'replicate_token', 'r8_', '[A-Za-z0-9]{37}', 3.5,
    s('gha', '      - run: cog push --token r8_«AN:37»', '      - run: cog push')),

  // ------------------------------------------------------------ prefix: payments, commerce, messaging
  prefix('stripe-secret-key', 'stripe_key', '[sr]k_(?:live|test|prod)_', '[A-Za-z0-9]{10,99}', 3,
    s('cs', '    public static readonly StripeClient V = new("sk_test_«AN:99»");', '    public static readonly StripeClient V = new(Environment.GetEnvironmentVariable("STRIPE_KEY"));'), ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_']),
  prefix('stripe-webhook-secret', 'stripe_webhook_secret', 'whsec_', '[A-Za-z0-9+/]{32,}', 3,
    s('json', '"value": "whsec_«AN:32»"', '"value": "whsec_"')),
  {
    // Square: sq0atp-/sq0csp- and EAAA… access tokens — the latter not inside a base64 run, where EAAA is common.
    id: 'square-token', kind: 'square_token', class: 'prefix', triggers: ['sq0atp-', 'sq0csp-', 'eaaa'],
    re: /(?<![A-Za-z0-9_+/=-])(?:sq0(?:atp|csp)-|EAAA)([A-Za-z0-9_-]{22,60})(?![A-Za-z0-9_+/=-])/g, value: 1, accept: (v) => randomEnough(v, 3.5),
    sample: s('cs', '    var v = "EAAA«URL:60»";', '    var v = "EAAAAAAAAAAAAAAAAAAAAAAAAAAA";'),
  },
  prefix('braintree-access-token', 'braintree_token', 'access_token\\$(?:production|sandbox)\\$', '[a-z0-9]{16}\\$[a-f0-9]{32}', 3,
    s('md', 'Braintree: access_token$production$«LOWD:16»$«HEX:32»', 'Braintree tokens start with access_token$production$.'), ['access_token$']),
  prefix('shopify-token', 'shopify_token', 'shp(?:at|ca|pa|ss)_', '[a-fA-F0-9]{32}', 3,
    s('gha', '      - run: shopify theme push --password shpat_«HEX:32»', '      - run: shopify theme push'), ['shpat_', 'shpca_', 'shppa_', 'shpss_']),
  prefix('shippo-token', 'shippo_token', 'shippo_(?:live|test)_', '[a-fA-F0-9]{40}', 3,
    s('json', '"value": "shippo_live_«HEX:40»"', '"value": "shippo_live_"'), ['shippo_']),
  prefix('easypost-api-key', 'easypost_api_key', 'EZ[AT]K', '[A-Za-z0-9]{54}', 3,
    s('yaml', 'value: EZAK«AN:54»', 'value: EZAK'), ['ezak', 'eztk']),
  prefix('flutterwave-secret-key', 'flutterwave_key', 'FLWSECK(?:_TEST)?-?', '[a-h0-9]{32}-X|[a-h0-9]{12}', 3,
    s('cs', '    public const string V = "FLWSECK_TEST-«AH:32»-X";', '    public const string V = "FLWSECK_TEST-";'), ['flwseck']),
  prefix('adobe-client-secret', 'adobe_client_secret', 'p8e-', '[A-Za-z0-9]{32}', 3,
    s('json', '"value": "p8e-«AN:32»"', '"value": "p8e-"')),
  prefix('sendgrid-api-key', 'sendgrid_api_key', 'SG\\.', '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}', 3,
    s('cs', '    public static readonly SendGridClient V = new("SG.«URL:22».«URL:43»");', '    public static readonly SendGridClient V = new("SG.");')),
  prefix('twilio-api-key', 'twilio_api_key', 'SK', '[0-9a-fA-F]{32}', 3,
    s('json', '"value": { "Sid": "SK«HEX:32»" }', '"value": { "Sid": "SKIP" }'), []),
  prefix('mailgun-api-key', 'mailgun_api_key', '(?:pub)?key-', '[a-f0-9]{32}', 3,
    s('yaml', 'value: key-«HEX:32»', 'value: key-value-store'), ['key-', 'pubkey-']),
  prefix('mailchimp-api-key', 'mailchimp_api_key', '', '[a-f0-9]{32}-us[0-9]{1,2}', 3,
    s('json', '"value": "«HEX:32»-us21"', '"value": "en-us"'), ['-us']),
  prefix('brevo-api-key', 'brevo_api_key', 'x(?:key|smtp)sib-', '[a-f0-9]{64}-[A-Za-z0-9]{16}', 3,
    s('md', 'Brevo: xkeysib-«HEX:64»-«AN:16»', 'Brevo keys start with xkeysib-.'), ['xkeysib-', 'xsmtpsib-']),
  prefix('slack-token', 'slack_token', 'xox[abeoprs]-', '[A-Za-z0-9-]{10,}', 3,
    s('yaml', 'value: xoxb-«D:12»-«D:13»-«AN:24»', 'value: xoxb-your-token'), ['xox']),
  prefix('slack-config-token', 'slack_token', '(?:xoxe\\.xox[bp]-\\d-|xoxe-\\d-)', '[A-Z0-9]{140,170}', 3.5,
    s('yaml', 'value: xoxe.xoxp-1-«UPAN:164»', 'value: xoxe.xoxp-1-'), ['xoxe.xox', 'xoxe-']),
  prefix('slack-app-token', 'slack_token', 'xapp-', '[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+', 3,
    s('md', 'Socket mode: xapp-1-A«UPAN:10»-«D:13»-«HEX:64»', 'Socket mode tokens start with xapp-.')),
  {
    // After `bot` in an API URL too (api.telegram.org/bot<token>/…): only digits may not precede it.
    id: 'telegram-bot-token', kind: 'telegram_bot_token', class: 'prefix', triggers: [':aa'],
    re: /(?<![0-9])[0-9]{8,10}:AA([A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/g, value: 1, accept: (v) => randomEnough(v, 3),
    sample: s('gha', '      - run: curl https://api.telegram.org/bot«D:10»:AA«URL:33»/sendMessage', '      - run: curl https://api.telegram.org/bot${{ secrets.TG }}/sendMessage'),
  },
  {
    // A user id (a snowflake, in base64: M, N or O then D, T, j or z), a timestamp, an HMAC.
    id: 'discord-bot-token', kind: 'discord_bot_token', class: 'prefix', triggers: [],
    re: /(?<![A-Za-z0-9_.-])([MNO][DTjz][A-Za-z0-9_-]{21,26}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})(?![A-Za-z0-9_.-])/g, value: 1,
    accept: (v) => discordBotToken(v) && randomEnough(v, 4),
    sample: s('cs', '    var v = "MTA5OTg4NTc0NjQ4OTY5ODE5Mg.«URL:6».«URL:38»";', '    var v = "MTA5.version.Assembly";'),
  },
  prefix('mapbox-secret-token', 'mapbox_secret_token', 'sk\\.', 'eyJ[A-Za-z0-9_-]{50,}\\.[A-Za-z0-9_-]{20,}', 4,
    s('json', '"value": "sk.eyJ«URL:60».«URL:22»"', '"value": "pk.eyJ1IjoiZXhhbXBsZSJ9.public"'), ['sk.eyj']),
  prefix('facebook-page-token', 'facebook_token', 'EAA[MC]', '[A-Za-z0-9]{100,}', 4,
    s('json', '"value": "EAAM«AN:120»"', '"value": "EAAM"'), ['eaam', 'eaac']),
  {
    id: 'facebook-access-token', kind: 'facebook_token', class: 'prefix', triggers: [],
    re: /(?<![0-9])\d{15,16}(?:\||%7[Cc])([0-9A-Za-z_-]{27,40})(?![A-Za-z0-9_-])/g, value: 1, accept: (v) => randomEnough(v, 3.5),
    sample: s('cs', '    var v = "«D:16»|«URL:32»";', '    var v = "1234567890123456|";'),
  },
  {
    // Twitter/X app bearer tokens: 22 A's then the rest, percent-encoded.
    id: 'twitter-bearer-token', kind: 'twitter_token', class: 'prefix', triggers: ['aaaaaaaaaaaaaaaaaaaaaa'],
    re: /(?<![A-Za-z0-9%])A{22}([A-Za-z0-9%]{80,100})(?![A-Za-z0-9%])/g, value: 1, accept: (v) => randomEnough(v, 4),
    sample: s('json', `"value": "${'A'.repeat(22)}«AN:90»"`, `"value": "${'A'.repeat(22)}"`),
  },

  // ------------------------------------------------------------ structure: webhooks, URLs, tokens in known places
  {
    id: 'slack-webhook-url', kind: 'slack_webhook', class: 'structure', triggers: ['hooks.slack.com'],
    re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/([A-Za-z0-9_]+)/g, value: 1, accept: (v) => randomEnough(v, 3),
    sample: s('gha', '      - run: curl -X POST -d @msg.json https://hooks.slack.com/services/T«UPAN:8»/B«UPAN:10»/«AN:24»', '      - run: curl -X POST -d @msg.json ${{ secrets.SLACK_WEBHOOK }}'),
  },
  {
    id: 'discord-webhook-url', kind: 'discord_webhook', class: 'structure', triggers: ['/api/webhooks/'],
    re: /discord(?:app)?\.com\/api\/webhooks\/[0-9]{16,20}\/([A-Za-z0-9_-]{60,70})/g, value: 1, accept: (v) => randomEnough(v, 3.5),
    sample: s('yaml', 'url: https://discord.com/api/webhooks/«D:18»/«URL:68»', 'url: https://discord.com/developers/docs/resources/webhook'),
  },
  {
    id: 'teams-webhook-url', kind: 'teams_webhook', class: 'structure', triggers: ['webhook.office.com'],
    re: /\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@-]+\/IncomingWebhook\/([a-f0-9]{32})\//g, value: 1,
    sample: s('json', '"value": "https://contoso.webhook.office.com/webhookb2/«UUID»@«UUID»/IncomingWebhook/«HEX:32»/«UUID»"', '"value": "https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/"'),
  },
  {
    id: 'jwt', kind: 'jwt', class: 'structure', triggers: ['eyj'],
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g,
    sample: s('cs', '    public const string V = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI«D:10»In0.«URL:43»";', '    public const string V = "eyJhbGciOiJIUzI1NiJ9";'),
  },
  {
    id: 'jwt-base64', kind: 'jwt', class: 'structure', triggers: ['zxlk'],
    re: /(?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9+/]{60,}={0,2}/g, accept: (v) => { try { return /^eyJ[A-Za-z0-9_-]+\.eyJ/.test(atob(v.slice(0, Math.floor(v.length / 4) * 4))); } catch { return false; } },
    sample: s('yaml', 'value: ZXlKaGJHY2lPaUpJVXpJMU5pSXNJblI1Y0NJNklrcFhWQ0o5LmV5SnpkV0lpT2lJeE1qTTBOVFkzT0Rrd0lu«B64:40»', 'value: ZXlKaGJHY2lP'),
  },
  {
    id: 'url-credentials', kind: 'url_credentials', class: 'structure', triggers: [],
    re: /:\/\/[^\s:@/'"<>]+:([^\s@/'"<>]+)@/g, value: 1, accept: notPlaceholder,
    sample: s('yaml', 'url: postgres://app:«AN:20»@db.internal:5432/shop', 'url: postgres://app:${DB_PASSWORD}@db.internal:5432/shop'),
  },
  {
    // A personal access token as the whole user part: https://<PAT>@dev.azure.com/…, https://<token>@github.com/…
    id: 'url-token-userinfo', kind: 'url_credentials', class: 'structure', triggers: ['dev.azure.com', 'visualstudio.com', 'github.com', 'gitlab.com', 'bitbucket.org'],
    re: /https?:\/\/([A-Za-z0-9_-]{32,})@(?:dev\.azure\.com|[\w-]+\.visualstudio\.com|github\.com|gitlab\.com|bitbucket\.org)[/:]/g, value: 1, accept: (v) => tokenLike(v, 32, 3.5),
    sample: s('azp', '- script: git clone https://«B32:52»@dev.azure.com/contoso/shop/_git/shop', '- script: git clone https://contoso@dev.azure.com/contoso/shop/_git/shop'),
  },
  {
    id: 'azure-storage-account-key', kind: 'azure_storage_account_key', class: 'structure', triggers: ['accountkey'],
    re: /(?<![A-Za-z0-9])AccountKey\s*=\s*([A-Za-z0-9+/]{80,100}={0,2})/gi, value: 1, accept: (v) => randomEnough(v, 4),
    sample: s('cs', '    public const string V = "DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=«B64:86»==;EndpointSuffix=core.windows.net";', '    public const string V = "UseDevelopmentStorage=true";'),
  },
  {
    // The key alone, where a command or a constructor takes it: --account-key, -StorageAccountKey, StorageSharedKeyCredential(name, key).
    id: 'azure-storage-key-argument', kind: 'azure_storage_account_key', class: 'structure', triggers: ['account-key', 'accountkey', 'storagesharedkeycredential'],
    re: /(?:--account-key[ \t=]+|-(?:Storage)?AccountKey[ \t]+|StorageSharedKeyCredential\(\s*@?"[^"]*"\s*,\s*@?)["']?([A-Za-z0-9+/]{80,100}={0,2})/gi, value: 1, accept: (v) => randomEnough(v, 4),
    sample: s('sh', 'az storage blob upload --account-name contoso --account-key «B64:86»== -c drops -f build.zip', 'az storage blob upload --account-name contoso --account-key "$STORAGE_KEY" -c drops -f build.zip'),
  },
  {
    id: 'azure-shared-access-key', kind: 'azure_shared_access_key', class: 'structure', triggers: ['sharedaccesskey'],
    re: /(?<![A-Za-z0-9])SharedAccessKey\s*=\s*([A-Za-z0-9+/]{40,48}={0,2})/gi, value: 1, accept: (v) => randomEnough(v, 3.5),
    sample: s('json', '"value": "Endpoint=sb://contoso.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=«B64:43»="', '"value": "Endpoint=sb://contoso.servicebus.windows.net/;SharedAccessKeyName=send"'),
  },
  {
    id: 'azure-sas-signature', kind: 'azure_sas_token', class: 'structure', triggers: ['sig='],
    re: /[?&;]sig=([A-Za-z0-9%+/]{30,}(?:=|%3[Dd]){0,2})/g, value: 1, accept: (v) => randomEnough(v, 3.5),
    sample: s('md', 'Download: https://contoso.blob.core.windows.net/drops/build.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&spr=https&sig=«B64:43»%3D', 'Download: https://contoso.blob.core.windows.net/drops/build.zip?sv=2022-11-02&sig=<signature>'),
  },
  {
    id: 'azure-function-key', kind: 'azure_function_key', class: 'structure', triggers: ['azurewebsites.net/api/'],
    re: /\.azurewebsites\.net\/api\/[^\s"'?#]*\?(?:[^\s"'#]*&)?code=([A-Za-z0-9_%-]{30,}(?:={0,2}|(?:%3[Dd]){0,2}))/g, value: 1, accept: (v) => randomEnough(v, 3.5),
    sample: s('json', '"value": "https://contoso-fn.azurewebsites.net/api/Orders?code=«URL:54»=="', '"value": "https://contoso-fn.azurewebsites.net/api/Orders"'),
  },
  {
    id: 'npm-auth-token', kind: 'npm_token', class: 'structure', triggers: ['_authtoken', 'npmauthtoken'],
    re: /(?:_authToken|npmAuthToken)["']?[ \t]*(?:=|:|[ \t])[ \t]*["']?([^\s"'#;,]{8,})/g, value: 1, accept: notPlaceholder,
    sample: s('md', '```sh\nnpm config set //registry.npmjs.org/:_authToken «UUID»\n```', '```sh\nnpm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}\n```'),
  },
  {
    // user:password in base64: an .npmrc `_auth`, a Docker config's `"auth"`.
    id: 'basic-credentials-base64', kind: 'http_basic_auth', class: 'structure', triggers: ['_auth', '"auth"'],
    re: /(?:_auth[ \t]*=[ \t]*|"auth"[ \t]*:[ \t]*")([A-Za-z0-9+/]{8,}={0,2})/g, value: 1, accept: basicCredentials,
    sample: s('json', '"auths": { "contoso.azurecr.io": { "auth": "«BASIC»" } }', '"auths": { "contoso.azurecr.io": { "auth": "" } }'),
  },
  {
    id: 'http-basic-auth', kind: 'http_basic_auth', class: 'structure', triggers: ['basic'],
    re: /(?:\bAuthorization["']?[ \t]*[:=,][ \t]*["']?|\bAuthenticationHeaderValue\(\s*"|["'])Basic(?:[ \t]+|",\s*@?")([A-Za-z0-9+/]{8,}={0,2})/gi, value: 1, accept: (v) => basicCredentials(v) || randomEnough(v, 3.5),
    sample: s('yaml', 'headers:\n  Authorization: Basic «BASIC»', 'headers:\n  Authorization: Basic ${CREDENTIALS}'),
  },
  {
    id: 'auth-header-value-literal', kind: 'http_auth_header', class: 'structure', triggers: ['authenticationheadervalue'],
    re: /AuthenticationHeaderValue\(\s*"(?:Bearer|Token)"\s*,\s*@?"([A-Za-z0-9+/._~-]{12,}={0,2})"/g, value: 1, accept: (v) => randomEnough(v, 3),
    sample: s('cs', '    public static void Sign(HttpClient c) => c.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "«AN:40»");', '    public static void Sign(HttpClient c, string t) => c.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", t);'),
  },
  {
    // Sidekiq Pro/Enterprise gem credentials (a Bundler setting; the URL form is url-credentials).
    id: 'sidekiq-secret', kind: 'sidekiq_secret', class: 'structure', triggers: ['contribsys'],
    re: /BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["']?[ \t]*[=:][ \t]*["']?([a-f0-9]{8}:[a-f0-9]{8})/gi, value: 1, accept: (v) => randomEnough(v, 3),
    sample: s('env', 'BUNDLE_ENTERPRISE__CONTRIBSYS__COM=«HEX:8»:«HEX:8»', 'BUNDLE_ENTERPRISE__CONTRIBSYS__COM=${SIDEKIQ_CREDENTIALS}'),
  },
  {
    id: 'okta-ssws-token', kind: 'okta_api_token', class: 'structure', triggers: ['ssws'],
    re: /\bSSWS[ \t]+([A-Za-z0-9_=-]{30,})/g, value: 1, accept: (v) => randomEnough(v, 3.5),
    sample: s('sh', 'curl -H "Authorization: SSWS 00«URL:40»" https://contoso.okta.com/api/v1/users', 'curl -H "Authorization: SSWS ${OKTA_TOKEN}" https://contoso.okta.com/api/v1/users'),
  },
  {
    id: 'secret-setter-call', kind: 'generic_secret', class: 'structure', triggers: [],
    re: /\b(?:With|Set|Use)[A-Za-z]*?(Secret|Password|Passphrase|ApiKey|AccessKey|Token|Credentials?)\s*\(\s*[@$]?"([^"\\\r\n]{4,})"/g, value: 2,
    accept: (v, m) => (/^(?:Token|Credentials?)$/.test(m[1]) ? tokenLike(v) : notPlaceholder(v)),
    sample: s('cs', '    public static IConfidentialClientApplication App() => ConfidentialClientApplicationBuilder.Create("app").WithClientSecret("«AN:40»").Build();', '    public static IConfidentialClientApplication App(string v) => ConfidentialClientApplicationBuilder.Create("app").WithClientSecret(v).Build();'),
  },
  {
    id: 'network-credential', kind: 'generic_secret', class: 'structure', triggers: ['networkcredential'],
    re: /new\s+(?:System\.Net\.)?NetworkCredential\s*\(\s*(?:@?"[^"\r\n]*"|[\w.]+)\s*,\s*@?"([^"\\\r\n]{3,})"/g, value: 1, accept: notPlaceholder,
    sample: s('cs', '    public static readonly NetworkCredential V = new NetworkCredential("svc-mail", "«AN:16»!");', '    public static readonly NetworkCredential V = new NetworkCredential("svc-mail", settings.Password);'),
  },
  {
    // The secret argument of a credential constructor, by position: ClientSecretCredential(tenant, client, secret),
    // UsernamePasswordCredential(user, password, …), BasicAWSCredentials(id, secret), AzureKeyCredential(key)…
    id: 'credential-constructor-argument', kind: 'generic_secret', class: 'structure', triggers: ['credential'],
    re: /new\s+(?:[\w.]+\.)?(?:ClientSecretCredential\(\s*(?:@?"[^"\r\n]*"|[\w.]+)\s*,\s*(?:@?"[^"\r\n]*"|[\w.]+)\s*,|UsernamePasswordCredential\(\s*(?:@?"[^"\r\n]*"|[\w.]+)\s*,|(?:BasicAWSCredentials|SessionAWSCredentials)\(\s*(?:@?"[^"\r\n]*"|[\w.]+)\s*,|(?:AzureKeyCredential|ApiKeyCredential|AzureNamedKeyCredential\(\s*@?"[^"\r\n]*"\s*,|AzureSasCredential)\()\s*@?"([^"\\\r\n]{8,})"/g,
    value: 1, accept: notPlaceholder,
    sample: s('cs', '    static readonly TokenCredential V = new ClientSecretCredential("«UUID»", "«UUID»", "«AN:3»8Q«AN:30»");', '    static readonly TokenCredential V = new ClientSecretCredential(tenant, client, options.ClientSecret);'),
  },
  {
    // PowerShell: ConvertTo-SecureString "literal" -AsPlainText.
    id: 'powershell-plaintext-securestring', kind: 'generic_secret', class: 'structure', triggers: ['convertto-securestring'],
    re: /ConvertTo-SecureString\s+(?:-String\s+)?(["'])([^"'\r\n]{4,})\1\s+-AsPlainText/gi, value: 2, accept: notPlaceholder,
    sample: s('sh', '$pw = ConvertTo-SecureString "«AN:14»" -AsPlainText -Force', '$pw = ConvertTo-SecureString $env:DEPLOY_PASSWORD -AsPlainText -Force'),
  },

  // ------------------------------------------------------------ structure: command lines
  {
    id: 'docker-login-password', kind: 'docker_password', class: 'structure', triggers: ['docker', 'podman', 'helm', 'oras'],
    re: /\b(?:docker|podman|helm\s+registry|oras|nerdctl)[ \t]+login\b[^\r\n]*?[ \t](?:-p|--password)(?:=|[ \t]+)(["']?)([^\s"']+)\1/g, value: 2, accept: notPlaceholder,
    sample: s('gha', '      - run: docker login -u ci -p «AN:24» contoso.azurecr.io', '      - run: docker login -u ci -p ${{ secrets.ACR_PASSWORD }} contoso.azurecr.io'),
  },
  {
    // A literal fed to a command that reads a secret on stdin: echo "…" | docker login --password-stdin, | az devops login, | sudo -S.
    id: 'stdin-fed-secret', kind: 'generic_secret', class: 'structure', triggers: ['-stdin', 'login', 'sudo', 'chpasswd'],
    re: /\b(?:echo|printf)[ \t]+(?:-[neE]+[ \t]+)?(["']?)([^\s"'|$`]{6,})\1[ \t]*\|[ \t]*(?:sudo[ \t]+-S\b|chpasswd\b|[^\r\n|]*?(?:--password-stdin|--with-token|devops[ \t]+login|--password-from-stdin)\b)/g, value: 2,
    accept: (v) => notPlaceholder(v) && !/^(?:-|\$)/.test(v),
    sample: s('gha', '      - run: echo "«AN:24»" | docker login -u ci --password-stdin contoso.azurecr.io', '      - run: echo "$ACR_PASSWORD" | docker login -u ci --password-stdin contoso.azurecr.io'),
  },
  {
    id: 'stdin-herestring-secret', kind: 'generic_secret', class: 'structure', triggers: ['<<<'],
    re: /(?:--password-stdin|--with-token|sudo[ \t]+-S)[^\r\n<]*<<<[ \t]*(["']?)([^\s"'$`]{6,})\1/g, value: 2, accept: notPlaceholder,
    sample: s('sh', 'docker login -u ci --password-stdin contoso.azurecr.io <<< "«AN:24»"', 'docker login -u ci --password-stdin contoso.azurecr.io <<< "$ACR_PASSWORD"'),
  },
  {
    // SQL Server tools: -P <password> (capital P; -P'…', -P "…").
    id: 'sqlcmd-password', kind: 'database_password', class: 'structure', triggers: ['sqlcmd', 'bcp', 'osql', 'isql', 'sqlpackage'],
    re: /\b(?:sqlcmd|bcp|osql|isql)(?:\.exe)?\b[^\r\n]*?[ \t]-P[ \t]*(["']?)([^\s"']{3,})\1/g, value: 2, accept: notPlaceholder,
    sample: s('gha', '      - run: sqlcmd -S db -U sa -P «AN:14» -Q "select 1"', '      - run: sqlcmd -S db -U sa -P "$SA_PASSWORD" -Q "select 1"'),
  },
  {
    // MySQL and MariaDB clients: -p<password> written against the flag (a space after -p asks for it).
    id: 'mysql-password', kind: 'database_password', class: 'structure', triggers: ['mysql', 'mariadb'],
    re: /\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^\r\n]*?[ \t]-p(["']?)([^\s"'-][^\s"']*)\1/g, value: 2, accept: notPlaceholder,
    sample: s('gha', '      - run: mysql -u root -p«AN:14» shop < dump.sql', '      - run: mysql -u root -p shop < dump.sql'),
  },
  {
    // Other command-line tools' password options: redis-cli -a, sshpass -p, htpasswd -b, zip -P, 7z -p, openssl pass:, smbclient user%pass.
    id: 'cli-password-flag', kind: 'database_password', class: 'structure', triggers: ['redis-cli', 'sshpass', 'htpasswd', 'zip', '7z ', '7za', 'pass:', 'smbclient', 'mongo'],
    re: /(?:\bredis-cli\b[^\r\n]*?[ \t]-a[ \t]+|\bsshpass[ \t]+-p[ \t]*|\bhtpasswd\b[^\r\n]*?[ \t]-\w*b\w*[ \t]+\S+[ \t]+\S+[ \t]+|\bzip\b[^\r\n]*?[ \t]-P[ \t]+|\b7za?\b[^\r\n]*?[ \t]-p|[ \t]-pass(?:in|out)?[ \t]+pass:|\bsmbclient\b[^\r\n]*?-U[ \t]+[^%\s]+%|\bmongo(?:sh|dump|restore|import|export)?\b[^\r\n]*?[ \t](?:-p|--password)[ \t=]+)(["']?)([^\s"']{4,})\1/g,
    value: 2, accept: (v) => notPlaceholder(v) && !/^-/.test(v),
    sample: s('sh', 'redis-cli -h cache.internal -p 6379 -a «AN:20» PING', 'redis-cli -h cache.internal -p 6379 -a "$REDIS_PASSWORD" PING'),
  },
  {
    // A password, token or key given to any command as an option's value: --password=…, --client-secret …, --api-key …
    id: 'cli-secret-option', kind: 'generic_secret', class: 'structure', triggers: ['--pass', '--secret', '--client-secret', '--token', '--api-key', '--apikey', '--access-key', '--secret-key', '--auth-token', '--sas-token', '/p:password', '-password'],
    re: /(?:^|[ \t"'`(])(?:--(?:password|passwd|pass|db-password|admin-password|secret|client-secret|secret-key|secret-access-key|access-key|api-key|apikey|auth-token|access-token|token|sas-token|private-key-password)|-(?:Password|ClientSecret|ApiKey|Token)|\/p:(?:Password|ClientSecret))(?:=|[ \t]+)(["']?)([^\s"'<>]+)\1/gi,
    value: 2, accept: (v, m) => notPlaceholder(v) && !/^-/.test(v) && (/pass|secret/i.test(m[0]) ? true : tokenLike(v, 16, 3.3)),
    sample: s('sh', 'az ad sp create-for-rbac --name deploy --password «AN:18»!', 'az ad sp create-for-rbac --name deploy --password "$SP_PASSWORD"'),
  },
  {
    // kubectl create secret … --from-literal=key=value: the value is a secret whatever the key is called.
    id: 'kubectl-secret-literal', kind: 'kubernetes_secret', class: 'structure', triggers: ['--from-literal'],
    re: /--from-literal[= ][^=\s]+=(["']?)([^\s"']{4,})\1/g, value: 2, accept: notPlaceholder,
    sample: s('sh', 'kubectl create secret generic db --from-literal=pw=«AN:20»', 'kubectl create secret generic db --from-literal=pw="$DB_PASSWORD"'),
  },
  {
    id: 'kubernetes-secret-data', kind: 'kubernetes_secret', class: 'structure', triggers: ['kind: secret', 'kind: "secret"', "kind: 'secret'", 'kind:secret'],
    re: /$^/g, scan: kubernetesSecretData,
    sample: s('yaml', 'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  pw: «B64:24»\n  user: «B64:8»', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: db\ndata:\n  host: ZGIuaW50ZXJuYWw='),
  },
  {
    id: 'curl-user-credentials', kind: 'curl_credentials', class: 'structure', triggers: ['curl', 'wget'],
    re: /\b(?:curl\b[^\r\n]*?[ \t](?:-u|--user)(?:=|[ \t]+)(["']?)[^\s"':]*:|wget\b[^\r\n]*?[ \t]--(?:http-)?password(?:=|[ \t]+)(["']?))([^\s"']+)(?:\1|\2)/g, value: 3, accept: notPlaceholder,
    sample: s('md', '```sh\ncurl -u deploy:«AN:20» https://ci.example.com/job/release/build\n```', '```sh\ncurl -u deploy:$CI_TOKEN https://ci.example.com/job/release/build\n```'),
  },

  // ------------------------------------------------------------ entropy: opaque values where secrets go
  {
    id: 'bearer-token', kind: 'bearer_token', class: 'entropy', triggers: ['bearer'],
    re: /\bBearer[ \t]+([A-Za-z0-9._~+/-]{20,}={0,2})(?![A-Za-z0-9._~+/=-])/gi, value: 1, accept: (v) => tokenLike(v, 20, 3.2),
    sample: s('cs', '    public static void Auth(HttpRequestMessage m) => m.Headers.Add("Authorization", "Bearer «AN:40»");', '    public static void Auth(HttpRequestMessage m, string t) => m.Headers.Add("Authorization", $"Bearer {t}");'),
  },
  {
    id: 'api-key-header', kind: 'api_key_header', class: 'entropy',
    triggers: ['api-key', 'auth-token', 'access-token', 'subscription-key', 'functions-key', 'private-token', 'application-key', 'dd-api', 'app-key'],
    re: /(?<![A-Za-z0-9_-])(?:x-api-key|api-key|x-auth-token|x-access-token|ocp-apim-subscription-key|x-functions-key|private-token|x-goog-api-key|dd-api-key|dd-application-key|x-app-key|x-apikey)["']?[ \t]*[:=,][ \t]*["']?([A-Za-z0-9._~+/=-]{16,})/gi,
    value: 1, accept: (v) => tokenLike(v, 16, 3.3),
    sample: s('sh', 'curl -H "DD-API-KEY: «HEX:32»" https://api.datadoghq.com/api/v1/validate', 'curl -H "DD-API-KEY: ${DD_API_KEY}" https://api.datadoghq.com/api/v1/validate'),
  },

  // ------------------------------------------------------------ context: no shape of their own
  {
    // 64 random bytes in base64 (86 characters and ==) near storage words; a SHA-512 digest has the same
    // shape (packages.lock.json's contentHash, `sha512-…`), so the words decide.
    id: 'azure-storage-key-context', kind: 'azure_storage_account_key', class: 'context', triggers: [],
    re: /$^/g, scan: onlyIf((text) => paddedBase64Possible(text, 86), nearContext(/(?<![A-Za-z0-9+/=_-])([A-Za-z0-9+/]{86}==)(?![A-Za-z0-9+/=])/g, /storage|blob|queue|\btable|accountname|account[_ -]?key|windows\.net|azurite|\bazure/i, (v) => randomEnough(v, 4.5))),
    sample: s('json', '"Blobs": {\n    "Account": "contoso",\n    "Value": "«B64:86»=="\n  }', '"Packages": {\n    "Contoso.Core": { "type": "Direct", "contentHash": "«B64:86»==" }\n  }'),
  },
  {
    id: 'datadog-key-context', kind: 'datadog_api_key', class: 'context', triggers: ['datadog', 'dd_api', 'dd-api', 'dd_app', 'dd-app', 'dd_site'],
    re: /$^/g, scan: nearContext(/(?<![A-Za-z0-9_-])([a-f0-9]{32}|[a-f0-9]{40})(?![A-Za-z0-9_-])/g, /datadog|\bdd[_-](?:api|app|site)/i, (v) => randomEnough(v, 3.2) && /[a-f]/.test(v) && /[0-9]/.test(v)),
    sample: s('cs', '    // Datadog metrics\n    public const string V = "«HEX:32»";', '    // Datadog metrics\n    public const string V = "datadoghq.com";'),
  },
  {
    // A legacy Azure DevOps PAT: 52 characters of base32, lower case, near the service's names.
    id: 'azure-devops-pat-context', kind: 'azure_devops_pat', class: 'context', triggers: ['dev.azure.com', 'visualstudio.com', 'devops', 'vsts', 'ado_'],
    re: /$^/g, scan: nearContext(/(?<![A-Za-z0-9_-])([a-z2-7]{52})(?![A-Za-z0-9_-])/g, /dev\.azure\.com|visualstudio\.com|azure.?devops|\bdevops\b|vsts|\bado_/i, (v) => randomEnough(v, 4) && /[2-7]/.test(v)),
    sample: s('sh', 'ORG=https://dev.azure.com/contoso\nV=«B32:52»\ncurl -u ":$V" "$ORG/_apis/projects"', 'ORG=https://dev.azure.com/contoso\nV=$(cat ~/.ado/pat)\ncurl -u ":$V" "$ORG/_apis/projects"'),
  },
  {
    // base64 of `user:password` as a literal, whatever it is called (a bare HTTP Basic credential, a Docker config's auth).
    id: 'basic-credentials-literal', kind: 'http_basic_auth', class: 'context', triggers: [],
    re: /$^/g, scan: bareBasicCredentials,
    sample: s('cs', '    public const string V = "«BASIC»";', '    public const string V = "SGVsbG8sIFdvcmxkIQ==";'),
  },
];

/** Keys whose names end in a secret word but hold no secret (PublicKey, CacheKey, x:Key…). */
const NOT_SECRET_KEY = /(?:public(?:key)?|primary|foreign|sort|cache|partition|row|lookup|resource|license|registry|hot|shortcut|keyboard|gesture|x:|item|dictionary|group|query|route|localization|translation|i18n|message|label|setting|state|storage_?account_?name|blob|object|file|path|name|type|id|csrf|xsrf|antiforgery|cancellation|continuation|paging|page|next|sync|refresh_token_url|idempotency|dedup|dedupe|correlation|trace|encryption_?key_?id|key_?vault|key_?id)[_.-]?(?:key|token|auth|credentials?|signature|pat)$/i;

/** A provider's own key: the key names the provider, the value has its shape (gitleaks' keyword rules, written here). */
function provider(id: string, kind: string, key: RegExp, value: RegExp, sample: Sample): KeyRule {
  return { id, kind, class: 'key', key, value, sample };
}

export const KEY_RULES: readonly KeyRule[] = [
  {
    id: 'connection-string-password', kind: 'connection_string_password', class: 'key', words: ['password', 'pwd'], value: 'literal', form: 'connection-string',
    sample: s('json', '"ConnectionStrings": { "Shop": "Server=db;Database=shop;User Id=sa;Password=«AN:16»;" }', '"ConnectionStrings": { "Shop": "Server=db;Database=shop;Integrated Security=true;" }'),
  },
  // Provider keys: the key names the provider, the value has its shape.
  provider('aws-secret-access-key', 'aws_secret_access_key', /aws.?secret(?:.?access)?.?key$|^secretaccesskey$/i, /^[A-Za-z0-9/+=]{20,}$/,
    s('yaml', 'aws:\n  aws_secret_access_key: «B64:40»', 'aws:\n  aws_secret_access_key: ${AWS_SECRET_ACCESS_KEY}')),
  provider('aws-session-token-key', 'aws_session_token', /aws.?session.?token$|^sessiontoken$/i, /^[A-Za-z0-9/+=]{100,}$/,
    s('env', 'AWS_SESSION_TOKEN=«B64:180»', 'AWS_SESSION_TOKEN=')),
  provider('twilio-auth-token', 'twilio_auth_token', /twilio/i, /^[a-f0-9]{32}$/, s('json', '"TwilioAuthToken": "«HEX:32»"', '"TwilioAuthToken": ""')),
  provider('heroku-api-key', 'heroku_api_key', /heroku/i, uuid, s('yaml', 'deploy:\n  HEROKU_API_KEY: «UUID»', 'deploy:\n  HEROKU_API_KEY: ${{ secrets.HEROKU_API_KEY }}')),
  provider('datadog-api-key', 'datadog_api_key', /datadog|^dd_/i, /^[a-f0-9]{32,40}$/,
    s('gha', '      - run: ./ship-metrics.sh\n        env:\n          DD_API_KEY: «HEX:32»', '      - run: ./ship-metrics.sh\n        env:\n          DD_API_KEY: ${{ secrets.DD_API_KEY }}')),
  provider('discord-api-key', 'discord_token', /discord/i, /^(?:[a-f0-9]{64}|[A-Za-z0-9_-]{32}|[A-Za-z0-9_-]{24,28}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})$/,
    s('json', '"DiscordClientSecret": "«URL:32»"', '"DiscordClientSecret": ""')),
  provider('cloudflare-api-token', 'cloudflare_api_token', /cloudflare|^cf_/i, /^(?:[A-Za-z0-9_-]{37,40}|[a-f0-9]{37})$/,
    s('gha', '      - run: wrangler deploy\n        env:\n          CLOUDFLARE_API_TOKEN: «URL:40»', '      - run: wrangler deploy\n        env:\n          CLOUDFLARE_API_TOKEN: ${{ secrets.CF }}')),
  provider('okta-api-token', 'okta_api_token', /okta/i, /^00[A-Za-z0-9_=-]{40}$/, s('json', '"OktaApiToken": "00«URL:40»"', '"OktaApiToken": "00"')),
  provider('snyk-token', 'snyk_token', /snyk/i, uuid, s('gha', '      - run: snyk test\n        env:\n          SNYK_TOKEN: «UUID»', '      - run: snyk test\n        env:\n          SNYK_TOKEN: ${{ secrets.SNYK_TOKEN }}')),
  provider('sonar-token', 'sonar_token', /sonar/i, /^[a-z0-9]{40}$/, s('azp', '- script: ./scan.sh\n  env:\n    SONAR_TOKEN: «LOWD:40»', '- script: ./scan.sh\n  env:\n    SONAR_TOKEN: $(SONAR_TOKEN)')),
  provider('codecov-token', 'codecov_token', /codecov/i, new RegExp(`^(?:${UUID}|[a-z0-9]{32})$`), s('gha', '      - run: ./codecov\n        env:\n          CODECOV_TOKEN: «UUID»', '      - run: ./codecov\n        env:\n          CODECOV_TOKEN: ${{ secrets.CODECOV_TOKEN }}')),
  provider('circleci-token', 'circleci_token', /circle/i, /^(?:CCIPAT_[A-Za-z0-9]{22}_)?[a-f0-9]{40}$/, s('yaml', 'ci:\n  CIRCLECI_TOKEN: «HEX:40»', 'ci:\n  CIRCLECI_TOKEN: ""')),
  provider('netlify-token-key', 'netlify_token', /netlify/i, /^(?:nfp_)?[A-Za-z0-9_-]{40,46}$/, s('gha', '      - run: netlify deploy --prod\n        env:\n          NETLIFY_AUTH_TOKEN: «URL:43»', '      - run: netlify deploy --prod\n        env:\n          NETLIFY_AUTH_TOKEN: ${{ secrets.NETLIFY }}')),
  provider('vercel-token', 'vercel_token', /vercel/i, /^[A-Za-z0-9]{24}$/, s('gha', '      - run: vercel --prod\n        env:\n          VERCEL_TOKEN: «AN:24»', '      - run: vercel --prod\n        env:\n          VERCEL_TOKEN: ${{ secrets.VERCEL_TOKEN }}')),
  provider('algolia-api-key', 'algolia_api_key', /algolia/i, /^[a-f0-9]{32}$/, s('json', '"AlgoliaAdminApiKey": "«HEX:32»"', '"AlgoliaAdminApiKey": ""')),
  provider('facebook-app-secret', 'facebook_app_secret', /facebook|^fb_?app/i, /^[a-f0-9]{32}$/, s('json', '"FacebookAppSecret": "«HEX:32»"', '"FacebookAppSecret": ""')),
  provider('azure-devops-pat-legacy', 'azure_devops_pat', /azure.?devops|^ado_|vsts|devops.?(?:pat|token)|^system_accesstoken$/i, /^[a-z2-7]{52}$/,
    s('azp', '- script: az pipelines run --name release\n  env:\n    AZURE_DEVOPS_EXT_PAT: «B32:52»', '- script: az pipelines run --name release\n  env:\n    AZURE_DEVOPS_EXT_PAT: $(System.AccessToken)')),
  provider('adafruit-key', 'adafruit_key', /adafruit/i, /^[a-z0-9_-]{32}$/, s('yaml', 'ADAFRUIT_IO_KEY: «LOWD:32»', 'ADAFRUIT_IO_KEY: ${{ secrets.ADAFRUIT_IO_KEY }}')),
  provider('airtable-api-key', 'airtable_token', /airtable/i, /^key[A-Za-z0-9]{14}$/, s('yaml', 'AIRTABLE_API_KEY: key«AN:14»', 'AIRTABLE_API_KEY: ${{ secrets.AIRTABLE_API_KEY }}')),
  provider('alibaba-secret-key', 'alibaba_secret_key', /alibaba|aliyun/i, /^[A-Za-z0-9]{30}$/, s('yaml', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET: «AN:30»', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET: ${{ secrets.ALIBABA_CLOUD_ACCESS_KEY_SECRET }}')),
  provider('asana-secret', 'asana_token', /asana/i, /^(?:[a-z0-9]{32}|[0-9]{16})$/, s('yaml', 'ASANA_CLIENT_SECRET: «LOWD:32»', 'ASANA_CLIENT_SECRET: ${{ secrets.ASANA_CLIENT_SECRET }}')),
  provider('atlassian-api-token-key', 'atlassian_token', /atlassian|confluence|jira/i, /^[A-Za-z0-9]{24}$/, s('yaml', 'JIRA_API_TOKEN: «AN:24»', 'JIRA_API_TOKEN: ${{ secrets.JIRA_API_TOKEN }}')),
  provider('beamer-token', 'beamer_token', /beamer/i, /^b_[A-Za-z0-9=_-]{44}$/, s('yaml', 'BEAMER_API_KEY: b_«URL:44»', 'BEAMER_API_KEY: ${{ secrets.BEAMER_API_KEY }}')),
  provider('bitbucket-secret', 'bitbucket_token', /bitbucket/i, /^(?:[A-Za-z0-9]{32}|[A-Za-z0-9=_-]{64})$/, s('yaml', 'BITBUCKET_CLIENT_SECRET: «AN:32»', 'BITBUCKET_CLIENT_SECRET: ${{ secrets.BITBUCKET_CLIENT_SECRET }}')),
  provider('bittrex-secret', 'bittrex_key', /bittrex/i, /^[A-Za-z0-9]{32}$/, s('yaml', 'BITTREX_API_SECRET: «AN:32»', 'BITTREX_API_SECRET: ${{ secrets.BITTREX_API_SECRET }}')),
  provider('meraki-api-key', 'meraki_api_key', /meraki/i, /^[0-9a-f]{40}$/, s('yaml', 'MERAKI_DASHBOARD_API_KEY: «HEX:40»', 'MERAKI_DASHBOARD_API_KEY: ${{ secrets.MERAKI_DASHBOARD_API_KEY }}')),
  provider('cohere-api-key', 'cohere_key', /cohere|^co_api/i, /^[A-Za-z0-9]{40}$/, s('yaml', 'COHERE_API_KEY: «AN:40»', 'COHERE_API_KEY: ${{ secrets.COHERE_API_KEY }}')),
  provider('coinbase-secret', 'coinbase_key', /coinbase/i, /^[A-Za-z0-9_-]{64}$/, s('yaml', 'COINBASE_API_SECRET: «URL:64»', 'COINBASE_API_SECRET: ${{ secrets.COINBASE_API_SECRET }}')),
  provider('confluent-secret', 'confluent_key', /confluent/i, /^(?:[A-Za-z0-9]{16}|[A-Za-z0-9]{64})$/, s('yaml', 'CONFLUENT_CLOUD_API_SECRET: «AN:64»', 'CONFLUENT_CLOUD_API_SECRET: ${{ secrets.CONFLUENT_CLOUD_API_SECRET }}')),
  provider('contentful-token', 'contentful_token', /contentful/i, /^[A-Za-z0-9=_-]{43}$/, s('yaml', 'CONTENTFUL_DELIVERY_TOKEN: «URL:43»', 'CONTENTFUL_DELIVERY_TOKEN: ${{ secrets.CONTENTFUL_DELIVERY_TOKEN }}')),
  provider('droneci-token', 'droneci_token', /drone/i, /^[A-Za-z0-9]{32}$/, s('yaml', 'DRONE_TOKEN: «AN:32»', 'DRONE_TOKEN: ${{ secrets.DRONE_TOKEN }}')),
  provider('dropbox-token', 'dropbox_token', /dropbox/i, /^(?:[A-Za-z0-9]{15}|[A-Za-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43}|sl\.[A-Za-z0-9_.=-]{130,})$/, s('yaml', 'DROPBOX_ACCESS_TOKEN: «AN:11»AAAAAAAAAA«URL:43»', 'DROPBOX_ACCESS_TOKEN: ${{ secrets.DROPBOX_ACCESS_TOKEN }}')),
  provider('etsy-token', 'etsy_token', /etsy/i, /^[A-Za-z0-9]{24}$/, s('yaml', 'ETSY_API_KEY: «AN:24»', 'ETSY_API_KEY: ${{ secrets.ETSY_API_KEY }}')),
  provider('fastly-token', 'fastly_token', /fastly/i, /^[A-Za-z0-9=_-]{32}$/, s('yaml', 'FASTLY_API_TOKEN: «URL:32»', 'FASTLY_API_TOKEN: ${{ secrets.FASTLY_API_TOKEN }}')),
  provider('finicity-secret', 'finicity_key', /finicity/i, /^(?:[a-f0-9]{32}|[A-Za-z0-9]{20})$/, s('yaml', 'FINICITY_APP_KEY: «HEX:32»', 'FINICITY_APP_KEY: ${{ secrets.FINICITY_APP_KEY }}')),
  provider('finnhub-token', 'finnhub_token', /finnhub/i, /^[A-Za-z0-9]{20}$/, s('yaml', 'FINNHUB_API_KEY: «AN:20»', 'FINNHUB_API_KEY: ${{ secrets.FINNHUB_API_KEY }}')),
  provider('flickr-token', 'flickr_token', /flickr/i, /^[A-Za-z0-9]{32}$/, s('yaml', 'FLICKR_API_SECRET: «AN:32»', 'FLICKR_API_SECRET: ${{ secrets.FLICKR_API_SECRET }}')),
  provider('freshbooks-token', 'freshbooks_token', /freshbooks/i, /^[A-Za-z0-9]{64}$/, s('yaml', 'FRESHBOOKS_ACCESS_TOKEN: «AN:64»', 'FRESHBOOKS_ACCESS_TOKEN: ${{ secrets.FRESHBOOKS_ACCESS_TOKEN }}')),
  provider('gitter-token', 'gitter_token', /gitter/i, /^[A-Za-z0-9_-]{40}$/, s('yaml', 'GITTER_TOKEN: «URL:40»', 'GITTER_TOKEN: ${{ secrets.GITTER_TOKEN }}')),
  provider('gocardless-token', 'gocardless_token', /gocardless/i, /^live_[A-Za-z0-9_=-]{40}$/, s('yaml', 'GOCARDLESS_ACCESS_TOKEN: live_«URL:40»', 'GOCARDLESS_ACCESS_TOKEN: ${{ secrets.GOCARDLESS_ACCESS_TOKEN }}')),
  provider('hubspot-key', 'hubspot_key', /hubspot/i, new RegExp(`^(?:${UUID}|pat-[a-z0-9]{2,4}-${UUID})$`), s('yaml', 'HUBSPOT_API_KEY: «UUID»', 'HUBSPOT_API_KEY: ${{ secrets.HUBSPOT_API_KEY }}')),
  provider('intercom-token', 'intercom_token', /intercom/i, /^[A-Za-z0-9=_-]{59,60}$/, s('yaml', 'INTERCOM_ACCESS_TOKEN: «URL:60»', 'INTERCOM_ACCESS_TOKEN: ${{ secrets.INTERCOM_ACCESS_TOKEN }}')),
  provider('jfrog-key', 'artifactory_token', /jfrog|artifactory|bintray|xray/i, /^(?:[A-Za-z0-9]{73}|[A-Za-z0-9]{64})$/, s('yaml', 'JFROG_ACCESS_TOKEN: «AN:64»', 'JFROG_ACCESS_TOKEN: ${{ secrets.JFROG_ACCESS_TOKEN }}')),
  provider('kraken-key', 'kraken_key', /kraken/i, /^[A-Za-z0-9/=_+-]{80,90}$/, s('yaml', 'KRAKEN_API_SECRET: «B64:88»', 'KRAKEN_API_SECRET: ${{ secrets.KRAKEN_API_SECRET }}')),
  provider('kucoin-key', 'kucoin_key', /kucoin/i, new RegExp(`^(?:[a-f0-9]{24}|${UUID})$`), s('yaml', 'KUCOIN_API_SECRET: «UUID»', 'KUCOIN_API_SECRET: ${{ secrets.KUCOIN_API_SECRET }}')),
  provider('launchdarkly-key', 'launchdarkly_token', /launchdarkly/i, /^[A-Za-z0-9=_-]{40}$/, s('yaml', 'LAUNCHDARKLY_ACCESS_TOKEN: «URL:40»', 'LAUNCHDARKLY_ACCESS_TOKEN: ${{ secrets.LAUNCHDARKLY_ACCESS_TOKEN }}')),
  provider('linear-client-secret', 'linear_api_key', /linear/i, /^[a-f0-9]{32}$/, s('yaml', 'LINEAR_CLIENT_SECRET: «HEX:32»', 'LINEAR_CLIENT_SECRET: ${{ secrets.LINEAR_CLIENT_SECRET }}')),
  provider('linkedin-secret', 'linkedin_key', /linked.?in/i, /^[A-Za-z0-9]{14,16}$/, s('yaml', 'LINKEDIN_CLIENT_SECRET: «AN:16»', 'LINKEDIN_CLIENT_SECRET: ${{ secrets.LINKEDIN_CLIENT_SECRET }}')),
  provider('lob-key', 'lob_key', /lob/i, /^(?:live|test)_(?:pub_)?[a-f0-9]{31,35}$/, s('yaml', 'LOB_API_KEY: live_«HEX:35»', 'LOB_API_KEY: ${{ secrets.LOB_API_KEY }}')),
  provider('looker-secret', 'looker_key', /looker/i, /^(?:[A-Za-z0-9]{20}|[A-Za-z0-9]{24})$/, s('yaml', 'LOOKER_CLIENT_SECRET: «AN:24»', 'LOOKER_CLIENT_SECRET: ${{ secrets.LOOKER_CLIENT_SECRET }}')),
  provider('mailgun-signing-key', 'mailgun_api_key', /mailgun/i, /^[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}$/, s('yaml', 'MAILGUN_SIGNING_KEY: «AH:32»-«AH:8»-«AH:8»', 'MAILGUN_SIGNING_KEY: ${{ secrets.MAILGUN_SIGNING_KEY }}')),
  provider('mattermost-token', 'mattermost_token', /mattermost/i, /^[a-z0-9]{26}$/, s('yaml', 'MATTERMOST_TOKEN: «LOWD:26»', 'MATTERMOST_TOKEN: ${{ secrets.MATTERMOST_TOKEN }}')),
  provider('messagebird-key', 'messagebird_key', /message.?bird/i, /^[A-Za-z0-9]{25}$/, s('yaml', 'MESSAGEBIRD_API_KEY: «AN:25»', 'MESSAGEBIRD_API_KEY: ${{ secrets.MESSAGEBIRD_API_KEY }}')),
  provider('new-relic-user-key', 'newrelic_key', /new.?relic/i, /^[A-Za-z0-9]{64}$/, s('yaml', 'NEW_RELIC_LICENSE_KEY: «AN:64»', 'NEW_RELIC_LICENSE_KEY: ${{ secrets.NEW_RELIC_LICENSE_KEY }}')),
  provider('nytimes-key', 'nytimes_key', /nytimes|new.?york.?times/i, /^[A-Za-z0-9=_-]{32}$/, s('yaml', 'NYTIMES_API_KEY: «URL:32»', 'NYTIMES_API_KEY: ${{ secrets.NYTIMES_API_KEY }}')),
  provider('plaid-secret', 'plaid_token', /plaid/i, /^[A-Za-z0-9]{30}$/, s('yaml', 'PLAID_SECRET: «AN:30»', 'PLAID_SECRET: ${{ secrets.PLAID_SECRET }}')),
  provider('privateai-key', 'privateai_key', /private.?ai/i, /^[A-Za-z0-9]{32}$/, s('yaml', 'PRIVATEAI_API_KEY: «AN:32»', 'PRIVATEAI_API_KEY: ${{ secrets.PRIVATEAI_API_KEY }}')),
  provider('rapidapi-key', 'rapidapi_key', /rapidapi/i, /^[A-Za-z0-9_-]{50}$/, s('yaml', 'RAPIDAPI_KEY: «URL:50»', 'RAPIDAPI_KEY: ${{ secrets.RAPIDAPI_KEY }}')),
  provider('sendbird-token', 'sendbird_token', /sendbird/i, /^[a-f0-9]{40}$/, s('yaml', 'SENDBIRD_API_TOKEN: «HEX:40»', 'SENDBIRD_API_TOKEN: ${{ secrets.SENDBIRD_API_TOKEN }}')),
  provider('sentry-auth-token', 'sentry_token', /sentry/i, /^[a-f0-9]{64}$/, s('yaml', 'SENTRY_AUTH_TOKEN: «HEX:64»', 'SENTRY_AUTH_TOKEN: ${{ secrets.SENTRY_AUTH_TOKEN }}')),
  provider('squarespace-token', 'squarespace_token', /squarespace/i, uuid, s('yaml', 'SQUARESPACE_API_KEY: «UUID»', 'SQUARESPACE_API_KEY: ${{ secrets.SQUARESPACE_API_KEY }}')),
  provider('sumologic-key', 'sumologic_key', /sumo/i, /^(?:su[A-Za-z0-9]{12}|[A-Za-z0-9]{64})$/, s('yaml', 'SUMO_ACCESS_KEY: «AN:64»', 'SUMO_ACCESS_KEY: ${{ secrets.SUMO_ACCESS_KEY }}')),
  provider('travisci-token', 'travisci_token', /travis/i, /^[A-Za-z0-9]{22}$/, s('yaml', 'TRAVIS_TOKEN: «AN:22»', 'TRAVIS_TOKEN: ${{ secrets.TRAVIS_TOKEN }}')),
  provider('twitch-token', 'twitch_token', /twitch/i, /^[a-z0-9]{30}$/, s('yaml', 'TWITCH_CLIENT_SECRET: «LOWD:30»', 'TWITCH_CLIENT_SECRET: ${{ secrets.TWITCH_CLIENT_SECRET }}')),
  provider('twitter-key', 'twitter_token', /twitter/i, /^(?:[A-Za-z0-9]{25}|[A-Za-z0-9]{45}|[A-Za-z0-9]{50}|[0-9]{15,25}-[A-Za-z0-9]{20,40})$/, s('yaml', 'TWITTER_CONSUMER_SECRET: «AN:50»', 'TWITTER_CONSUMER_SECRET: ${{ secrets.TWITTER_CONSUMER_SECRET }}')),
  provider('vault-legacy-token', 'vault_token', /vault/i, /^s\.[A-Za-z0-9]{24}$/, s('yaml', 'VAULT_TOKEN: s.«AN:24»', 'VAULT_TOKEN: ${{ secrets.VAULT_TOKEN }}')),
  provider('yandex-key', 'yandex_key', /yandex/i, /^(?:YC[A-Za-z0-9_-]{38}|AQVN[A-Za-z0-9_-]{35,38})$/, s('yaml', 'YANDEX_SECRET_KEY: YC«URL:38»', 'YANDEX_SECRET_KEY: ${{ secrets.YANDEX_SECRET_KEY }}')),
  provider('zendesk-token', 'zendesk_token', /zendesk/i, /^[A-Za-z0-9]{40}$/, s('yaml', 'ZENDESK_API_TOKEN: «AN:40»', 'ZENDESK_API_TOKEN: ${{ secrets.ZENDESK_API_TOKEN }}')),
  provider('mistral-key', 'mistral_key', /mistral/i, /^[A-Za-z0-9]{32}$/, s('yaml', 'MISTRAL_API_KEY: «AN:32»', 'MISTRAL_API_KEY: ${{ secrets.MISTRAL_API_KEY }}')),
  // Strong names: any literal that is not a placeholder.
  {
    id: 'secret-named-key', kind: 'generic_secret', class: 'key', words: ['password', 'passwd', 'pwd', 'passphrase', 'secret', 'secret_key', 'api_key', 'access_token', 'auth_token'], value: 'literal',
    sample: s('cs', '    var v = new NetworkCredential { UserName = "svc", Password = "«AN:12»" };', '    var v = new NetworkCredential { UserName = "svc", Password = options.Password };'),
  },
  // Weak names: only a value that reads as machine-made (long, letters and digits, random enough).
  {
    id: 'secret-named-key-high-entropy', kind: 'generic_high_entropy_secret', class: 'key', words: ['token', 'key', 'credential', 'credentials', 'auth', 'pat', 'signature', 'sas'], value: 'token', notKey: NOT_SECRET_KEY,
    sample: s('azp', '- script: ./deploy.sh\n  env:\n    DEPLOY_TOKEN: «AN:40»', '- script: ./deploy.sh\n  env:\n    DEPLOY_TOKEN: $(DeployToken)'),
  },
];

/** Every rule, for reports (ids and kinds). */
export const SECRET_RULES: readonly SecretRule[] = [...PATTERN_RULES, ...KEY_RULES];

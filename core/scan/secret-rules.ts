// The table of content secret rules: every kind of secret hci recognises, each with a stable id and
// the kind its findings report. Three classes of evidence, as established scanners use them (the
// kinds follow gitleaks' default rules, trufflehog's detectors and GitHub secret scanning's
// provider and non-provider patterns; the regular expressions are hci's own):
//   prefix    a token whose own text says what it is (`ghp_…`, `npm_…`, `SG.….…`, `AKIA…`), with a
//             minimum entropy of its variable part so documentation fillers (`ghp_xxxx…`) pass;
//   structure a secret known by where it sits (`AccountKey=` in a connection string, `sig=` of a SAS
//             URL, `docker login -p`, a PEM block, `user:pass@` in a URL);
//   entropy   an opaque value in a place secrets go (`Bearer <token>`, an API-key header) that is
//             random enough to be machine-made;
//   key       a secret-named key with a literal value (secret-keys.ts parses `key = value`, `key:
//             value`, `"key": "value"`, XML): strong names (password, secret, api_key…) take any
//             literal that is not a placeholder, weak ones (token, key, credential…) a token-like one,
//             provider names (twilio…token, heroku…key) the provider's own value shape.
// Matching and line bookkeeping are secrets.ts's (pattern rules) and secret-keys.ts's (key rules).
import { isPlaceholder, randomEnough, tokenLike } from './secret-values.ts';

export type RuleClass = 'prefix' | 'structure' | 'entropy' | 'key';

/** A rule found by one regular expression over the text. */
export interface PatternRule {
  id: string;
  kind: string;
  class: 'prefix' | 'structure' | 'entropy';
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
}

export type SecretRule = PatternRule | KeyRule;

const L = '(?<![A-Za-z0-9_])';
const R = '(?![A-Za-z0-9_])';

/** A prefixed token: `head` (its fixed start) then `body`, whose randomness is checked. */
function prefix(id: string, kind: string, triggers: string[], head: string, body: string, minEntropy = 3, flags = 'g'): PatternRule {
  return { id, kind, class: 'prefix', triggers, re: new RegExp(`${L}${head}(${body})${R}`, flags), value: 1, accept: (v) => randomEnough(v, minEntropy) };
}

const notPlaceholder = (v: string) => !isPlaceholder(v) && !/^\$|^%\w+%$|^\{\{/.test(v);
const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const uuid = new RegExp(`^${UUID}$`);

export const PATTERN_RULES: readonly PatternRule[] = [
  // ------------------------------------------------------------ structure: key material
  {
    id: 'private-key', kind: 'private_key', class: 'structure', triggers: ['-----begin '],
    re: /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----/g, endMarker: (m) => `-----END ${m[1]}-----`,
  },
  {
    id: 'putty-private-key', kind: 'private_key', class: 'structure', triggers: ['putty-user-key-file-'],
    re: /PuTTY-User-Key-File-\d+: /g, endMarker: () => 'Private-MAC: ',
  },
  // ------------------------------------------------------------ prefix: cloud providers
  prefix('aws-access-key-id', 'aws_access_key_id', ['akia', 'asia', 'abia', 'acca'], '(?:AKIA|ASIA|ABIA|ACCA)', '[A-Z0-9]{16}'),
  prefix('gcp-api-key', 'google_api_key', ['aiza'], 'AIza', '[0-9A-Za-z_-]{35}', 3.5),
  prefix('google-oauth-client-secret', 'google_oauth_client_secret', ['gocspx-'], 'GOCSPX-', '[A-Za-z0-9_-]{28}'),
  prefix('firebase-cloud-messaging-key', 'firebase_fcm_server_key', [':apa91b'], 'AAAA[A-Za-z0-9_-]{7}:APA91b', '[A-Za-z0-9_-]{130,}'),
  prefix('alibaba-access-key-id', 'alibaba_access_key_id', ['ltai'], 'LTAI', '[A-Za-z0-9]{20}'),
  prefix('digitalocean-token', 'digitalocean_token', ['_v1_'], 'do[opr]_v1_', '[a-f0-9]{64}'),
  prefix('heroku-api-key-v2', 'heroku_api_key', ['hrku-aa'], 'HRKU-AA', '[0-9a-zA-Z_-]{58}'),
  prefix('azure-devops-pat', 'azure_devops_pat', ['azdo'], '', '[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}', 4),
  {
    id: 'azure-ad-client-secret', kind: 'azure_ad_client_secret', class: 'prefix', triggers: ['q~'],
    re: /(?<![A-Za-z0-9_~.-])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])/g, accept: (v) => randomEnough(v, 3.5),
  },
  // ------------------------------------------------------------ prefix: code hosting, CI, registries
  prefix('github-token', 'github_token', ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], 'gh[pousr]_', '[A-Za-z0-9]{36,255}'),
  prefix('github-fine-grained-pat', 'github_token', ['github_pat_'], 'github_pat_', '[A-Za-z0-9_]{22,255}'),
  prefix('gitlab-token', 'gitlab_token', ['glpat-', 'gldt-', 'glrt-', 'glptt-', 'glcbt-', 'glft-', 'glsoat-', 'gloas-', 'glagent-', 'glimt-', 'glffct-'],
    'gl(?:pat|dt|rt|ptt|cbt|ft|soat|oas|agent|imt|ffct)-', '[A-Za-z0-9_.-]{20,}'),
  prefix('npm-access-token', 'npm_token', ['npm_'], 'npm_', '[A-Za-z0-9]{36}'),
  prefix('nuget-api-key', 'nuget_api_key', ['oy2'], 'oy2', '[a-z0-9]{43}', 3.5),
  prefix('pypi-upload-token', 'pypi_token', ['pypi-ageichlwas5vcmc'], 'pypi-AgEIcHlwaS5vcmc', '[A-Za-z0-9_-]{50,}'),
  prefix('rubygems-api-key', 'rubygems_token', ['rubygems_'], 'rubygems_', '[a-f0-9]{48}'),
  prefix('docker-hub-pat', 'docker_hub_token', ['dckr_pat_'], 'dckr_pat_', '[A-Za-z0-9_-]{27,}'),
  prefix('artifactory-api-key', 'artifactory_token', ['akcp'], 'AKCp', '[A-Za-z0-9]{69}', 4),
  prefix('artifactory-reference-token', 'artifactory_token', ['cmvmd'], 'cmVmd', '[A-Za-z0-9]{59}', 4),
  prefix('octopus-deploy-api-key', 'octopus_api_key', ['api-'], 'API-', '[A-Z0-9]{26}', 3.5),
  prefix('sonarqube-token', 'sonarqube_token', ['squ_', 'sqp_', 'sqa_'], 'sq[upa]_', '[a-f0-9]{40}'),
  prefix('terraform-cloud-token', 'terraform_cloud_token', ['.atlasv1.'], '[A-Za-z0-9]{14}\\.atlasv1\\.', '[A-Za-z0-9_=-]{60,70}'),
  prefix('vault-token', 'vault_token', ['hvs.', 'hvb.'], '(?:hvs|hvb)\\.', '[A-Za-z0-9_-]{90,300}', 4),
  prefix('pulumi-access-token', 'pulumi_token', ['pul-'], 'pul-', '[a-f0-9]{40}'),
  prefix('databricks-token', 'databricks_token', ['dapi'], 'dapi', '[a-f0-9]{32}(?:-\\d)?'),
  prefix('postman-api-key', 'postman_api_key', ['pmak-'], 'PMAK-', '[a-f0-9]{24}-[a-f0-9]{34}'),
  prefix('grafana-cloud-token', 'grafana_token', ['glc_'], 'glc_', '[A-Za-z0-9+/]{32,400}={0,3}'),
  prefix('grafana-service-account-token', 'grafana_token', ['glsa_'], 'glsa_', '[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}'),
  prefix('new-relic-key', 'newrelic_key', ['nrak-', 'nrii-', 'nrjs-'], 'NR(?:AK|II|JS)-', '[A-Za-z0-9_-]{19,32}'),
  prefix('sentry-token', 'sentry_token', ['sntrys_', 'sntryu_'], 'sntry[su]_', '[A-Za-z0-9+/=_]{64,}'),
  prefix('dynatrace-token', 'dynatrace_token', ['dt0c01.'], 'dt0c01\\.', '[A-Z0-9]{24}\\.[A-Z0-9]{64}'),
  prefix('doppler-token', 'doppler_token', ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.'], 'dp\\.(?:pt|st|sa|ct)\\.', '[A-Za-z0-9]{40,44}'),
  prefix('linear-api-key', 'linear_api_key', ['lin_api_'], 'lin_api_', '[A-Za-z0-9]{40}'),
  prefix('atlassian-api-token', 'atlassian_token', ['atatt3'], 'ATATT3', '[A-Za-z0-9_=-]{180,}', 4),
  prefix('figma-token', 'figma_token', ['figd_'], 'figd_', '[A-Za-z0-9_-]{40}'),
  prefix('supabase-token', 'supabase_token', ['sbp_'], 'sbp_', '[a-f0-9]{40}'),
  prefix('planetscale-token', 'planetscale_token', ['pscale_'], 'pscale_(?:tkn|pw|oauth)_', '[A-Za-z0-9_.=-]{32,64}'),
  prefix('notion-token', 'notion_token', ['ntn_'], 'ntn_', '[0-9]{11}[A-Za-z0-9]{35}'),
  prefix('sourcegraph-token', 'sourcegraph_token', ['sgp_'], 'sgp_', '(?:[a-f0-9]{16}_)?[a-f0-9]{40}'),
  prefix('age-secret-key', 'age_secret_key', ['age-secret-key-1'], 'AGE-SECRET-KEY-1', '[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}'),
  prefix('onepassword-service-token', 'onepassword_token', ['ops_eyj'], 'ops_', 'eyJ[A-Za-z0-9+/]{250,}={0,3}', 4),
  prefix('cloudflare-origin-ca-key', 'cloudflare_origin_ca_key', ['v1.0-'], 'v1\\.0-', '[a-f0-9]{24}-[a-f0-9]{146}'),
  // ------------------------------------------------------------ prefix: AI platforms
  prefix('anthropic-api-key', 'anthropic_key', ['sk-ant-'], 'sk-ant-', '[A-Za-z0-9_-]{20,}'),
  {
    id: 'openai-api-key', kind: 'openai_key', class: 'prefix', triggers: ['sk-'],
    re: /(?<![A-Za-z0-9_-])sk-((?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|[A-Za-z0-9]{20,}(?![A-Za-z0-9_-]))/g, value: 1, accept: (v) => randomEnough(v, 3),
  },
  prefix('groq-api-key', 'groq_api_key', ['gsk_'], 'gsk_', '[A-Za-z0-9]{52}'),
  prefix('xai-api-key', 'xai_api_key', ['xai-'], 'xai-', '[A-Za-z0-9]{80}'),
  prefix('perplexity-api-key', 'perplexity_api_key', ['pplx-'], 'pplx-', '[A-Za-z0-9]{48}'),
  prefix('huggingface-token', 'huggingface_token', ['hf_'], 'hf_', '[A-Za-z]{34}', 3.5),
  prefix('replicate-token', 'replicate_token', ['r8_'], 'r8_', '[A-Za-z0-9]{37}', 3.5),
  // ------------------------------------------------------------ prefix: payments, commerce, messaging
  prefix('stripe-secret-key', 'stripe_key', ['sk_live_', 'sk_test_', 'sk_prod_', 'rk_live_', 'rk_test_', 'rk_prod_'], '[sr]k_(?:live|test|prod)_', '[A-Za-z0-9]{10,99}'),
  prefix('stripe-webhook-secret', 'stripe_webhook_secret', ['whsec_'], 'whsec_', '[A-Za-z0-9+/]{32,}'),
  prefix('square-token', 'square_token', ['sq0atp-', 'sq0csp-'], 'sq0(?:atp|csp)-', '[A-Za-z0-9_-]{22,60}'),
  prefix('braintree-access-token', 'braintree_token', ['access_token$'], 'access_token\\$(?:production|sandbox)\\$', '[a-z0-9]{16}\\$[a-f0-9]{32}'),
  prefix('shopify-token', 'shopify_token', ['shpat_', 'shpca_', 'shppa_', 'shpss_'], 'shp(?:at|ca|pa|ss)_', '[a-fA-F0-9]{32}'),
  prefix('shippo-token', 'shippo_token', ['shippo_'], 'shippo_(?:live|test)_', '[a-fA-F0-9]{40}'),
  prefix('easypost-api-key', 'easypost_api_key', ['ezak', 'eztk'], 'EZ[AT]K', '[A-Za-z0-9]{54}'),
  prefix('flutterwave-secret-key', 'flutterwave_key', ['flwseck'], 'FLWSECK(?:_TEST)?-', '[a-h0-9]{32}-X'),
  prefix('adobe-client-secret', 'adobe_client_secret', ['p8e-'], 'p8e-', '[A-Za-z0-9]{32}'),
  prefix('sendgrid-api-key', 'sendgrid_api_key', ['sg.'], 'SG\\.', '[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}'),
  prefix('twilio-api-key', 'twilio_api_key', [], 'SK', '[0-9a-fA-F]{32}'),
  prefix('mailgun-api-key', 'mailgun_api_key', ['key-'], 'key-', '[a-f0-9]{32}'),
  prefix('mailchimp-api-key', 'mailchimp_api_key', ['-us'], '', '[a-f0-9]{32}-us[0-9]{1,2}'),
  prefix('brevo-api-key', 'brevo_api_key', ['xkeysib-'], 'xkeysib-', '[a-f0-9]{64}-[A-Za-z0-9]{16}'),
  prefix('slack-token', 'slack_token', ['xox'], 'xox[abeoprs]-', '[A-Za-z0-9-]{10,}'),
  prefix('slack-app-token', 'slack_token', ['xapp-'], 'xapp-', '[0-9]-[A-Z0-9]+-[0-9]+-[a-z0-9]+'),
  {
    // After `bot` in an API URL too (api.telegram.org/bot<token>/…): only digits may not precede it.
    id: 'telegram-bot-token', kind: 'telegram_bot_token', class: 'prefix', triggers: [':aa'],
    re: /(?<![0-9])[0-9]{8,10}:AA([A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])/g, value: 1, accept: (v) => randomEnough(v, 3),
  },
  prefix('mapbox-secret-token', 'mapbox_secret_token', ['sk.eyj'], 'sk\\.', 'eyJ[A-Za-z0-9_-]{50,}\\.[A-Za-z0-9_-]{20,}', 4),
  // ------------------------------------------------------------ structure: webhooks, URLs, tokens in known places
  {
    id: 'slack-webhook-url', kind: 'slack_webhook', class: 'structure', triggers: ['hooks.slack.com'],
    re: /hooks\.slack\.com\/(?:services|workflows|triggers)\/T[A-Za-z0-9_]+\/B[A-Za-z0-9_]+\/([A-Za-z0-9_]+)/g, value: 1, accept: (v) => randomEnough(v, 3),
  },
  {
    id: 'discord-webhook-url', kind: 'discord_webhook', class: 'structure', triggers: ['/api/webhooks/'],
    re: /discord(?:app)?\.com\/api\/webhooks\/[0-9]{16,20}\/([A-Za-z0-9_-]{60,70})/g, value: 1, accept: (v) => randomEnough(v, 3.5),
  },
  {
    id: 'teams-webhook-url', kind: 'teams_webhook', class: 'structure', triggers: ['webhook.office.com'],
    re: /\.webhook\.office\.com\/webhookb2\/[A-Za-z0-9@-]+\/IncomingWebhook\/([a-f0-9]{32})\//g, value: 1,
  },
  {
    id: 'jwt', kind: 'jwt', class: 'structure', triggers: ['eyj'],
    re: /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/g,
  },
  {
    id: 'url-credentials', kind: 'url_credentials', class: 'structure', triggers: [],
    re: /:\/\/[^\s:@/'"<>]+:([^\s@/'"<>]+)@/g, value: 1, accept: notPlaceholder,
  },
  {
    id: 'azure-storage-account-key', kind: 'azure_storage_account_key', class: 'structure', triggers: ['accountkey'],
    re: /(?<![A-Za-z0-9])AccountKey\s*=\s*([A-Za-z0-9+/]{80,100}={0,2})/gi, value: 1, accept: (v) => randomEnough(v, 4),
  },
  {
    id: 'azure-shared-access-key', kind: 'azure_shared_access_key', class: 'structure', triggers: ['sharedaccesskey'],
    re: /(?<![A-Za-z0-9])SharedAccessKey\s*=\s*([A-Za-z0-9+/]{40,48}={0,2})/gi, value: 1, accept: (v) => randomEnough(v, 3.5),
  },
  {
    id: 'azure-sas-signature', kind: 'azure_sas_token', class: 'structure', triggers: ['sig='],
    re: /[?&;]sig=([A-Za-z0-9%+/]{30,}(?:=|%3[Dd]){0,2})/g, value: 1, accept: (v) => randomEnough(v, 3.5),
  },
  {
    id: 'azure-function-key', kind: 'azure_function_key', class: 'structure', triggers: ['azurewebsites.net/api/'],
    re: /\.azurewebsites\.net\/api\/[^\s"'?#]*\?(?:[^\s"'#]*&)?code=([A-Za-z0-9_%-]{30,}(?:={0,2}|(?:%3[Dd]){0,2}))/g, value: 1, accept: (v) => randomEnough(v, 3.5),
  },
  {
    id: 'npm-auth-token', kind: 'npm_token', class: 'structure', triggers: ['_authtoken', 'npmauthtoken'],
    re: /(?:_authToken|npmAuthToken)["']?[ \t]*(?:=|:|[ \t])[ \t]*["']?([^\s"'#;,]{8,})/g, value: 1, accept: notPlaceholder,
  },
  {
    id: 'docker-login-password', kind: 'docker_password', class: 'structure', triggers: ['docker'],
    re: /\bdocker[ \t]+login\b[^\r\n]*?[ \t](?:-p|--password)(?:=|[ \t]+)(["']?)([^\s"']+)\1/g, value: 2, accept: notPlaceholder,
  },
  {
    id: 'curl-user-credentials', kind: 'curl_credentials', class: 'structure', triggers: ['curl'],
    re: /\bcurl\b[^\r\n]*?[ \t](?:-u|--user)(?:=|[ \t]+)(["']?)[^\s"':]+:([^\s"']+)\1/g, value: 2, accept: notPlaceholder,
  },
  {
    id: 'http-basic-auth', kind: 'http_basic_auth', class: 'structure', triggers: [],
    re: /\bAuthorization["']?[ \t]*[:=,][ \t]*["']?Basic[ \t]+([A-Za-z0-9+/]{12,}={0,2})/gi, value: 1, accept: (v) => randomEnough(v, 3),
  },
  {
    id: 'auth-header-value-literal', kind: 'http_auth_header', class: 'structure', triggers: ['authenticationheadervalue'],
    re: /AuthenticationHeaderValue\(\s*"(?:Basic|Bearer|Token)"\s*,\s*@?"([A-Za-z0-9+/._~-]{12,}={0,2})"/g, value: 1, accept: (v) => randomEnough(v, 3),
  },
  {
    id: 'secret-setter-call', kind: 'generic_secret', class: 'structure', triggers: [],
    re: /\b(?:With|Set|Use)[A-Za-z]*?(Secret|Password|Passphrase|ApiKey|AccessKey|Token|Credentials?)\s*\(\s*[@$]?"([^"\\\r\n]{4,})"/g, value: 2,
    accept: (v, m) => (/^(?:Token|Credentials?)$/.test(m[1]) ? tokenLike(v) : notPlaceholder(v)),
  },
  {
    id: 'network-credential', kind: 'generic_secret', class: 'structure', triggers: ['networkcredential'],
    re: /new\s+(?:System\.Net\.)?NetworkCredential\s*\(\s*(?:@?"[^"\r\n]*"|[\w.]+)\s*,\s*@?"([^"\\\r\n]{3,})"/g, value: 1, accept: notPlaceholder,
  },
  // ------------------------------------------------------------ entropy: opaque values where secrets go
  {
    id: 'bearer-token', kind: 'bearer_token', class: 'entropy', triggers: ['bearer'],
    re: /\bBearer[ \t]+([A-Za-z0-9._~+/-]{20,}={0,2})(?![A-Za-z0-9._~+/=-])/gi, value: 1, accept: (v) => tokenLike(v, 20, 3.2),
  },
  {
    id: 'api-key-header', kind: 'api_key_header', class: 'entropy',
    triggers: ['api-key', 'auth-token', 'access-token', 'subscription-key', 'functions-key', 'private-token'],
    re: /(?<![A-Za-z0-9_-])(?:x-api-key|api-key|x-auth-token|x-access-token|ocp-apim-subscription-key|x-functions-key|private-token|x-goog-api-key)["']?[ \t]*[:=,][ \t]*["']?([A-Za-z0-9._~+/=-]{16,})/gi,
    value: 1, accept: (v) => tokenLike(v, 16, 3.3),
  },
];

/** Keys whose names end in a secret word but hold no secret (PublicKey, CacheKey, x:Key…). */
const NOT_SECRET_KEY = /(?:public(?:key)?|primary|foreign|sort|cache|partition|row|lookup|resource|license|registry|hot|shortcut|keyboard|gesture|x:|item|dictionary|group|query|route|localization|translation|i18n|message|label|setting|state|storage|blob|object|file|path|name|type|id|csrf|xsrf|antiforgery|cancellation|continuation|paging|page|next|sync|refresh_token_url)[_.-]?(?:key|token|auth|credentials?|signature|pat)$/i;

export const KEY_RULES: readonly KeyRule[] = [
  { id: 'connection-string-password', kind: 'connection_string_password', class: 'key', words: ['password', 'pwd'], value: 'literal', form: 'connection-string' },
  // Provider keys: the key names the provider, the value has its shape.
  { id: 'aws-secret-access-key', kind: 'aws_secret_access_key', class: 'key', key: /aws.?secret(?:.?access)?.?key$|^secretaccesskey$/i, value: /^[A-Za-z0-9/+=]{20,}$/ },
  { id: 'twilio-auth-token', kind: 'twilio_auth_token', class: 'key', key: /twilio/i, value: /^[a-f0-9]{32}$/ },
  { id: 'heroku-api-key', kind: 'heroku_api_key', class: 'key', key: /heroku/i, value: uuid },
  { id: 'datadog-api-key', kind: 'datadog_api_key', class: 'key', key: /datadog|^dd_/i, value: /^[a-f0-9]{32,40}$/ },
  { id: 'discord-bot-token', kind: 'discord_bot_token', class: 'key', key: /discord/i, value: /^[A-Za-z0-9_-]{24,28}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}$/ },
  { id: 'cloudflare-api-token', kind: 'cloudflare_api_token', class: 'key', key: /cloudflare|^cf_/i, value: /^[A-Za-z0-9_-]{37,40}$/ },
  { id: 'okta-api-token', kind: 'okta_api_token', class: 'key', key: /okta/i, value: /^00[A-Za-z0-9_=-]{40}$/ },
  { id: 'snyk-token', kind: 'snyk_token', class: 'key', key: /snyk/i, value: uuid },
  { id: 'sonar-token', kind: 'sonar_token', class: 'key', key: /sonar/i, value: /^[a-z0-9]{40}$/ },
  { id: 'codecov-token', kind: 'codecov_token', class: 'key', key: /codecov/i, value: uuid },
  { id: 'circleci-token', kind: 'circleci_token', class: 'key', key: /circle/i, value: /^(?:CCIPAT_[A-Za-z0-9]{22}_)?[a-f0-9]{40}$/ },
  { id: 'netlify-token', kind: 'netlify_token', class: 'key', key: /netlify/i, value: /^(?:nfp_)?[A-Za-z0-9_-]{40,46}$/ },
  { id: 'vercel-token', kind: 'vercel_token', class: 'key', key: /vercel/i, value: /^[A-Za-z0-9]{24}$/ },
  { id: 'algolia-api-key', kind: 'algolia_api_key', class: 'key', key: /algolia/i, value: /^[a-f0-9]{32}$/ },
  { id: 'facebook-app-secret', kind: 'facebook_app_secret', class: 'key', key: /facebook|^fb_?app/i, value: /^[a-f0-9]{32}$/ },
  { id: 'azure-devops-pat-legacy', kind: 'azure_devops_pat', class: 'key', key: /azure.?devops|^ado_|vsts|devops.?(?:pat|token)|^system_accesstoken$/i, value: /^[a-z2-7]{52}$/ },
  // Strong names: any literal that is not a placeholder.
  { id: 'secret-named-key', kind: 'generic_secret', class: 'key', words: ['password', 'passwd', 'pwd', 'passphrase', 'secret', 'secret_key', 'api_key', 'access_token', 'auth_token'], value: 'literal' },
  // Weak names: only a value that reads as machine-made.
  { id: 'secret-named-key-high-entropy', kind: 'generic_high_entropy_secret', class: 'key', words: ['token', 'key', 'credential', 'credentials', 'auth', 'pat', 'signature', 'sas'], value: 'token', notKey: NOT_SECRET_KEY },
];

/** Every rule, for reports (ids and kinds). */
export const SECRET_RULES: readonly SecretRule[] = [...PATTERN_RULES, ...KEY_RULES];

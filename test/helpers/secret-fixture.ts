// Test helper: a workspace of fake secrets, one per file, of every kind the content rules know: every
// rule's own sample from the rule table (core/scan/secret-rules.ts, with weak variable names), plus
// the placements below (a connection string, `docker login -p`, an env block, `.WithClientSecret("…")`,
// a Dockerfile ENV, an .env line, an XML <add>, a command line's password flag), in C#, JSON, YAML,
// Markdown, GitHub Actions, Azure Pipelines, MSBuild XML, shell, Dockerfile and .env files. Each secret
// is generated here from a seeded PRNG with its real prefix, length and alphabet (nothing real, nothing
// stored in the repository), after ~130 lines of padding holding a marker word, so the file keeps an
// indexed chunk next to the dropped one. Shell, Dockerfile and .env files are indexed as text: the
// workspace's settings include their extensions (SECRET_FIXTURE_SETTINGS; a Dockerfile is written as `app.dockerfile`, as an extension-less name cannot be included).
import { mulberry32 } from '../../bench/corpus-gen.ts';
import { SECRET_RULES, type SampleFormat } from '../../core/scan/secret-rules.ts';
import { DEFAULT_EXTENSIONS } from '../../core/languages/table.ts';
import { expand, generator } from './secret-samples.ts';

export type Format = SampleFormat;

export interface SecretCase {
  /** The rule that must find it. */
  rule: string;
  kind: string;
  format: Format;
  /** The secret's generated text, whole and in its random runs (what must never reach the index). */
  pieces: string[];
  /** The 1-based line holding the first of them. */
  line: number;
  /** The file's path and content. */
  path: string;
  content: string;
  /** A word that occurs in the file's padding only. */
  marker: string;
}

/** The settings the fixture is indexed with: the default extensions plus shell, .env and .dockerfile files. */
export const SECRET_FIXTURE_SETTINGS = { include_extensions: [...DEFAULT_EXTENSIONS, '.sh', '.env', '.dockerfile'] };

const D = '0123456789';
const HEX = '0123456789abcdef';
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOW = 'abcdefghijklmnopqrstuvwxyz';
const AN = UP + LOW + D;
const URL = AN + '-_';
const B64 = AN + '+/';
const B32 = LOW + '234567';
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';

type Gen = (alphabet: string, n: number) => string;
type Spec = [rule: string, kind: string, format: Format, secret: (r: Gen, uuid: () => string) => string, line: (s: string) => string];

const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
const b64url = (s: string) => b64(s).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const pem = (label: string, body: string) => ['-----' + 'BEGIN ' + label + '-----', ...body.match(/.{1,64}/g)!, '-----' + 'END ' + label + '-----'].join('\n');

/** [rule, kind, format, secret generator, the line(s) it sits in]. */
const SPECS: Spec[] = [
  ['private-key', 'private_key', 'md', (r) => pem('RSA PRIVATE' + ' KEY', 'MIIEowIBAAKCAQEA' + r(B64, 300)), (s) => '```text\n' + s + '\n```'],
  ['putty-private-key', 'private_key', 'md', (r) => r(B64, 64), (s) => '```text\nPuTTY-User-Key-File-3: ssh-rsa\nEncryption: none\nPrivate-Lines: 1\n' + s + '\nPrivate-MAC: ' + s.slice(0, 8) + '\n```'],
  ['aws-access-key-id', 'aws_access_key_id', 'cs', (r) => 'AK' + 'IA' + r(UP + '234567', 16), (s) => `    public const string AccessKeyId = "${s}";`],
  ['aws-secret-access-key', 'aws_secret_access_key', 'yaml', (r) => r(B64, 40), (s) => `aws:\n  aws_secret_access_key: ${s}`],
  ['gcp-api-key', 'google_api_key', 'json', (r) => 'AI' + 'za' + r(URL, 35), (s) => `"Maps": "${s}"`],
  ['google-oauth-client-secret', 'google_oauth_client_secret', 'json', (r) => 'GOC' + 'SPX-' + r(URL, 28), (s) => `"GoogleOAuth": "${s}"`],
  ['firebase-cloud-messaging-key', 'firebase_fcm_server_key', 'cs', (r) => 'AAAA' + r(URL, 7) + ':APA' + '91b' + r(URL, 134), (s) => `    public const string Fcm = "${s}";`],
  ['alibaba-access-key-id', 'alibaba_access_key_id', 'yaml', (r) => 'LT' + 'AI' + r(AN, 20), (s) => `oss:\n  access_key_id: ${s}`],
  ['digitalocean-token', 'digitalocean_token', 'gha', (r) => 'dop' + '_v1_' + r(HEX, 64), (s) => `      - run: doctl auth init -t ${s}`],
  ['heroku-api-key-v2', 'heroku_api_key', 'md', (r) => 'HRKU' + '-AA' + r(URL, 58), (s) => '```sh\nheroku container:login --key ' + s + '\n```'],
  ['azure-devops-pat', 'azure_devops_pat', 'azp', (r) => r(AN, 76) + 'AZ' + 'DO' + r(AN, 4), (s) => `- script: az devops login --token ${s}`],
  ['azure-ad-client-secret', 'azure_ad_client_secret', 'json', (r) => r(AN, 3) + r(D, 1) + 'Q~' + r(AN + '_~.-', 34), (s) => `"AzureAd": "${s}"`],
  ['github-token', 'github_token', 'gha', (r) => 'gh' + 'p_' + r(AN, 36), (s) => `      - run: gh auth login --with-token <<< ${s}`],
  ['github-fine-grained-pat', 'github_token', 'md', (r) => 'github' + '_pat_' + r(AN, 22) + '_' + r(AN, 59), (s) => `Use \`${s}\` for the mirror job.`],
  ['gitlab-token', 'gitlab_token', 'yaml', (r) => 'gl' + 'pat-' + r(URL, 20), (s) => `mirror:\n  remote: ${s}`],
  ['npm-access-token', 'npm_token', 'cs', (r) => 'np' + 'm_' + r(AN, 36), (s) => `    public const string Registry = "${s}";`],
  ['npm-access-token', 'npm_token', 'json', (r) => 'np' + 'm_' + r(AN, 36), (s) => `"Npm": { "Token": "${s}" }`],
  ['npm-auth-token', 'npm_token', 'md', (_r, uuid) => uuid(), (s) => '```sh\nnpm config set //registry.npmjs.org/:_auth' + `Token ${s}\n` + '```'],
  ['nuget-api-key', 'nuget_api_key', 'azp', (r) => 'oy' + '2' + r(LOW + D, 43), (s) => `- script: dotnet nuget push out/*.nupkg -k ${s} -s https://api.nuget.org/v3/index.json`],
  ['pypi-upload-token', 'pypi_token', 'gha', (r) => 'pypi-' + 'AgEIcHlwaS5vcmc' + r(URL, 70), (s) => `      - run: twine upload -p ${s} dist/*`],
  ['rubygems-api-key', 'rubygems_token', 'yaml', (r) => 'ruby' + 'gems_' + r(HEX, 48), (s) => `gem:\n  publish: ${s}`],
  ['docker-hub-pat', 'docker_hub_token', 'gha', (r) => 'dckr' + '_pat_' + r(URL, 27), (s) => `      - run: echo ${s} | docker login -u ci --password-stdin`],
  ['artifactory-api-key', 'artifactory_token', 'json', (r) => 'AK' + 'Cp' + r(AN, 69), (s) => `"Artifactory": "${s}"`],
  ['artifactory-reference-token', 'artifactory_token', 'yaml', (r) => 'cmV' + 'md' + r(AN, 59), (s) => `artifactory:\n  reference: ${s}`],
  ['octopus-deploy-api-key', 'octopus_api_key', 'azp', (r) => 'AP' + 'I-' + r(UP + D, 26), (s) => `- script: octo push --package app.zip --apiKey ${s}`],
  ['sonarqube-token', 'sonarqube_token', 'azp', (r) => 'sq' + 'u_' + r(HEX, 40), (s) => `- script: dotnet sonarscanner begin /d:sonar.login=${s}`],
  ['terraform-cloud-token', 'terraform_cloud_token', 'md', (r) => r(AN, 14) + '.atlas' + 'v1.' + r(URL, 67), (s) => '```hcl\ncredentials "app.terraform.io" { value = "' + s + '" }\n```'],
  ['vault-token', 'vault_token', 'yaml', (r) => 'hv' + 's.' + r(URL, 95), (s) => `vault:\n  login: ${s}`],
  ['pulumi-access-token', 'pulumi_token', 'gha', (r) => 'pul' + '-' + r(HEX, 40), (s) => `      - run: pulumi login --access ${s}`],
  ['databricks-token', 'databricks_token', 'json', (r) => 'da' + 'pi' + r(HEX, 32), (s) => `"Databricks": "${s}"`],
  ['postman-api-key', 'postman_api_key', 'md', (r) => 'PM' + 'AK-' + r(HEX, 24) + '-' + r(HEX, 34), (s) => `Postman: ${s}`],
  ['grafana-cloud-token', 'grafana_token', 'yaml', (r) => 'gl' + 'c_' + r(AN, 60), (s) => `grafana:\n  remote_write: ${s}`],
  ['grafana-service-account-token', 'grafana_token', 'json', (r) => 'gl' + 'sa_' + r(AN, 32) + '_' + r(HEX, 8), (s) => `"Grafana": "${s}"`],
  ['new-relic-key', 'newrelic_key', 'cs', (r) => 'NR' + 'AK-' + r(UP + D, 27), (s) => `    public const string NewRelic = "${s}";`],
  ['sentry-token', 'sentry_token', 'yaml', (r) => 'sntry' + 'u_' + r(HEX, 64), (s) => `sentry:\n  cli: ${s}`],
  ['dynatrace-token', 'dynatrace_token', 'json', (r) => 'dt0' + 'c01.' + r(UP + D, 24) + '.' + r(UP + D, 64), (s) => `"Dynatrace": "${s}"`],
  ['doppler-token', 'doppler_token', 'gha', (r) => 'dp.' + 'pt.' + r(AN, 43), (s) => `      - run: doppler run --token ${s} -- ./deploy.sh`],
  ['linear-api-key', 'linear_api_key', 'md', (r) => 'lin' + '_api_' + r(AN, 40), (s) => `Linear: ${s}`],
  ['atlassian-api-token', 'atlassian_token', 'yaml', (r) => 'ATA' + 'TT3' + r(URL, 186), (s) => `jira:\n  basic: ${s}`],
  ['figma-token', 'figma_token', 'json', (r) => 'fi' + 'gd_' + r(URL, 40), (s) => `"Figma": "${s}"`],
  ['supabase-token', 'supabase_token', 'gha', (r) => 'sb' + 'p_' + r(HEX, 40), (s) => `      - run: supabase login --token ${s}`],
  ['planetscale-token', 'planetscale_token', 'yaml', (r) => 'pscale' + '_tkn_' + r(URL, 43), (s) => `planetscale:\n  service: ${s}`],
  ['notion-token', 'notion_token', 'md', (r) => 'nt' + 'n_' + r(D, 11) + r(AN, 35), (s) => `Notion integration: ${s}`],
  ['sourcegraph-token', 'sourcegraph_token', 'json', (r) => 'sg' + 'p_' + r(HEX, 16) + '_' + r(HEX, 40), (s) => `"Sourcegraph": "${s}"`],
  ['age-secret-key', 'age_secret_key', 'md', (r) => 'AGE-SECRET' + '-KEY-1' + r(BECH32, 58), (s) => '```text\n' + s + '\n```'],
  ['onepassword-service-token', 'onepassword_token', 'yaml', (r) => 'op' + 's_eyJ' + r(B64, 260), (s) => `op:\n  service: ${s}`],
  ['cloudflare-origin-ca-key', 'cloudflare_origin_ca_key', 'md', (r) => 'v1' + '.0-' + r(HEX, 24) + '-' + r(HEX, 146), (s) => `Origin CA: ${s}`],
  ['anthropic-api-key', 'anthropic_key', 'cs', (r) => 'sk-' + 'ant-api03-' + r(URL, 93) + 'AA', (s) => `    public const string Claude = "${s}";`],
  ['openai-api-key', 'openai_key', 'json', (r) => 'sk-' + 'proj-' + r(URL, 58) + 'T3Blbk' + 'FJ' + r(URL, 58), (s) => `"OpenAI": "${s}"`],
  ['groq-api-key', 'groq_api_key', 'yaml', (r) => 'gs' + 'k_' + r(AN, 52), (s) => `llm:\n  groq: ${s}`],
  ['xai-api-key', 'xai_api_key', 'md', (r) => 'xa' + 'i-' + r(AN, 80), (s) => `Grok: ${s}`],
  ['perplexity-api-key', 'perplexity_api_key', 'json', (r) => 'pp' + 'lx-' + r(AN, 48), (s) => `"Perplexity": "${s}"`],
  ['huggingface-token', 'huggingface_token', 'cs', (r) => 'h' + 'f_' + r(UP + LOW, 34), (s) => `    public const string Hub = "${s}";`],
  ['replicate-token', 'replicate_token', 'gha', (r) => 'r' + '8_' + r(AN, 37), (s) => `      - run: cog push --token ${s}`],
  ['stripe-secret-key', 'stripe_key', 'cs', (r) => 'sk' + '_test_' + r(AN, 99), (s) => `    public static readonly StripeClient Client = new("${s}");`],
  ['stripe-webhook-secret', 'stripe_webhook_secret', 'json', (r) => 'wh' + 'sec_' + r(AN, 32), (s) => `"StripeWebhook": "${s}"`],
  ['square-token', 'square_token', 'yaml', (r) => 'sq0' + 'atp-' + r(URL, 22), (s) => `square:\n  production: ${s}`],
  ['braintree-access-token', 'braintree_token', 'md', (r) => 'access' + '_token$production$' + r(LOW + D, 16) + '$' + r(HEX, 32), (s) => `Braintree: ${s}`],
  ['shopify-token', 'shopify_token', 'gha', (r) => 'shp' + 'at_' + r(HEX, 32), (s) => `      - run: shopify theme push --password ${s}`],
  ['shippo-token', 'shippo_token', 'json', (r) => 'shippo' + '_live_' + r(HEX, 40), (s) => `"Shippo": "${s}"`],
  ['easypost-api-key', 'easypost_api_key', 'yaml', (r) => 'EZ' + 'AK' + r(AN, 54), (s) => `shipping:\n  easypost: ${s}`],
  ['flutterwave-secret-key', 'flutterwave_key', 'cs', (r) => 'FLWSECK' + '_TEST-' + r('abcdefgh' + D, 32) + '-X', (s) => `    public const string Flutterwave = "${s}";`],
  ['adobe-client-secret', 'adobe_client_secret', 'json', (r) => 'p8' + 'e-' + r(AN, 32), (s) => `"Adobe": "${s}"`],
  ['sendgrid-api-key', 'sendgrid_api_key', 'cs', (r) => 'S' + 'G.' + r(URL, 22) + '.' + r(URL, 43), (s) => `    public static readonly SendGridClient Mail = new("${s}");`],
  ['twilio-api-key', 'twilio_api_key', 'json', (r) => 'S' + 'K' + r(HEX, 32), (s) => `"Twilio": { "Sid": "${s}" }`],
  ['mailgun-api-key', 'mailgun_api_key', 'yaml', (r) => 'ke' + 'y-' + r(HEX, 32), (s) => `mail:\n  mailgun: ${s}`],
  ['mailchimp-api-key', 'mailchimp_api_key', 'json', (r) => r(HEX, 32) + '-us' + '21', (s) => `"Mailchimp": "${s}"`],
  ['brevo-api-key', 'brevo_api_key', 'md', (r) => 'xkey' + 'sib-' + r(HEX, 64) + '-' + r(AN, 16), (s) => `Brevo: ${s}`],
  ['slack-app-token', 'slack_token', 'md', (r) => 'xa' + 'pp-1-' + 'A' + r(UP + D, 10) + '-' + r(D, 13) + '-' + r(HEX, 64), (s) => `Socket mode: ${s}`],
  ['slack-token', 'slack_token', 'yaml', (r) => 'xo' + 'xb-' + r(D, 12) + '-' + r(D, 13) + '-' + r(AN, 24), (s) => `chatops:\n  bot: ${s}`],
  ['telegram-bot-token', 'telegram_bot_token', 'gha', (r) => r('123456789', 1) + r(D, 9) + ':A' + 'A' + r(URL, 33), (s) => `      - run: curl https://api.telegram.org/bot${s}/sendMessage`],
  ['mapbox-secret-token', 'mapbox_secret_token', 'json', (r) => 's' + 'k.eyJ' + r(URL, 60) + '.' + r(URL, 22), (s) => `"Mapbox": "${s}"`],
  ['slack-webhook-url', 'slack_webhook', 'gha', (r) => 'https://hooks.slack' + '.com/services/T' + r(UP + D, 8) + '/B' + r(UP + D, 10) + '/' + r(AN, 24), (s) => `      - run: curl -X POST -d @msg.json ${s}`],
  ['discord-webhook-url', 'discord_webhook', 'yaml', (r) => 'https://discord' + '.com/api/webhooks/' + r(D, 18) + '/' + r(URL, 68), (s) => `notify:\n  url: ${s}`],
  ['teams-webhook-url', 'teams_webhook', 'json', (r, uuid) => `https://contoso.webhook.office` + `.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${r(HEX, 32)}/${uuid()}`, (s) => `"Teams": "${s}"`],
  ['jwt', 'jwt', 'cs', (r) => 'ey' + 'JhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.' + b64url(`{"sub":"${r(D, 10)}","name":"svc"}`) + '.' + r(URL, 43), (s) => `    public const string ServiceJwt = "${s}";`],
  ['url-credentials', 'url_credentials', 'yaml', (r) => r(AN, 20), (s) => `database:\n  url: postgres://app:${s}@db.internal:5432/shop`],
  ['azure-storage-account-key', 'azure_storage_account_key', 'cs', (r) => r(B64, 86) + '==', (s) => `    public const string Blobs = "DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=${s};EndpointSuffix=core.windows.net";`],
  ['azure-storage-account-key', 'azure_storage_account_key', 'json', (r) => r(B64, 86) + '==', (s) => `"ConnectionStrings": { "Storage": "DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=${s}" }`],
  ['azure-storage-account-key', 'azure_storage_account_key', 'azp', (r) => r(B64, 86) + '==', (s) => `- script: ./upload.sh\n  env:\n    STORAGE: DefaultEndpointsProtocol=https;AccountName=contoso;AccountKey=${s}`],
  ['azure-shared-access-key', 'azure_shared_access_key', 'cs', (r) => r(B64, 43) + '=', (s) => `    public const string Bus = "Endpoint=sb://contoso.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${s}";`],
  ['azure-shared-access-key', 'azure_shared_access_key', 'json', (r) => r(B64, 43) + '=', (s) => `"ServiceBus": "Endpoint=sb://contoso.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${s}"`],
  ['azure-shared-access-key', 'azure_shared_access_key', 'gha', (r) => r(B64, 43) + '=', (s) => `      - run: ./publish.sh\n        env:\n          EVENTS: Endpoint=sb://contoso.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=${s}`],
  ['azure-sas-signature', 'azure_sas_token', 'md', (r) => encodeURIComponent(r(B64, 43) + '='), (s) => `Download: https://contoso.blob.core.windows.net/drops/build.zip?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&spr=https&sig=${s}`],
  ['azure-function-key', 'azure_function_key', 'json', (r) => r(URL, 54) + '==', (s) => `"OrdersHook": "https://contoso-fn.azurewebsites.net/api/Orders?code=${s}"`],
  ['npm-auth-token', 'npm_token', 'gha', (_r, uuid) => uuid(), (s) => `      - run: echo "//registry.npmjs.org/:_authToken=${s}" > ~/.npmrc`],
  ['docker-login-password', 'docker_password', 'gha', (r) => r(AN, 24), (s) => `      - run: docker login -u ci -p ${s} contoso.azurecr.io`],
  ['curl-user-credentials', 'curl_credentials', 'md', (r) => r(AN, 20), (s) => '```sh\ncurl -u deploy:' + s + ' https://ci.example.com/job/release/build\n```'],
  ['http-basic-auth', 'http_basic_auth', 'yaml', (r) => b64('svc:' + r(AN, 16)), (s) => `probe:\n  headers:\n    Authorization: Basic ${s}`],
  ['auth-header-value-literal', 'http_auth_header', 'cs', (r) => r(AN, 40), (s) => `    public static void Sign(HttpClient c) => c.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", "${s}");`],
  ['secret-setter-call', 'generic_secret', 'cs', (r) => r(AN + '~._-', 40), (s) => `    public static IConfidentialClientApplication App() => ConfidentialClientApplicationBuilder.Create("app").WithClientSecret("${s}").Build();`],
  ['network-credential', 'generic_secret', 'cs', (r) => r(AN, 16) + '!', (s) => `    public static readonly NetworkCredential Smtp = new NetworkCredential("svc-mail", "${s}");`],
  ['bearer-token', 'bearer_token', 'cs', (r) => r(AN, 40), (s) => `    public static void Auth(HttpRequestMessage m) => m.Headers.Add("Authorization", "Bearer ${s}");`],
  ['bearer-token', 'bearer_token', 'md', (r) => r(URL, 40), (s) => '```sh\ncurl -H "Authorization: Bearer ' + s + '" https://api.example.com/v1/orders\n```'],
  ['api-key-header', 'api_key_header', 'cs', (r) => r(AN, 32), (s) => `    public static void Key(HttpClient c) => c.DefaultRequestHeaders.Add("X-Api-Key", "${s}");`],
  ['connection-string-password', 'connection_string_password', 'json', (r) => r(AN, 16), (s) => `"ConnectionStrings": { "Shop": "Server=db;Database=shop;User Id=sa;Password=${s};" }`],
  ['secret-named-key', 'generic_secret', 'yaml', (r) => r(AN, 14), (s) => `mail:\n  smtp_password: ${s}`],
  ['secret-named-key-high-entropy', 'generic_high_entropy_secret', 'azp', (r) => r(AN, 40), (s) => `- script: ./deploy.sh\n  env:\n    DEPLOY_TOKEN: ${s}`],
  ['twilio-auth-token', 'twilio_auth_token', 'json', (r) => r(HEX, 32), (s) => `"TwilioAuthToken": "${s}"`],
  ['heroku-api-key', 'heroku_api_key', 'yaml', (_r, uuid) => uuid(), (s) => `deploy:\n  HEROKU_API_KEY: ${s}`],
  ['datadog-api-key', 'datadog_api_key', 'gha', (r) => r(HEX, 32), (s) => `      - run: ./ship-metrics.sh\n        env:\n          DD_API_KEY: ${s}`],
  ['discord-api-key', 'discord_token', 'json', (r) => r(URL, 24) + '.' + r(URL, 6) + '.' + r(URL, 27), (s) => `"DiscordBotToken": "${s}"`],
  ['cloudflare-api-token', 'cloudflare_api_token', 'gha', (r) => r(URL, 40), (s) => `      - run: wrangler deploy\n        env:\n          CLOUDFLARE_API_TOKEN: ${s}`],
  ['okta-api-token', 'okta_api_token', 'json', (r) => '00' + r(URL, 40), (s) => `"OktaApiToken": "${s}"`],
  ['snyk-token', 'snyk_token', 'gha', (_r, uuid) => uuid(), (s) => `      - run: snyk test\n        env:\n          SNYK_TOKEN: ${s}`],
  ['sonar-token', 'sonar_token', 'azp', (r) => r(LOW + D, 40), (s) => `- script: ./scan.sh\n  env:\n    SONAR_TOKEN: ${s}`],
  ['codecov-token', 'codecov_token', 'gha', (_r, uuid) => uuid(), (s) => `      - run: ./codecov\n        env:\n          CODECOV_TOKEN: ${s}`],
  ['circleci-token', 'circleci_token', 'yaml', (r) => r(HEX, 40), (s) => `ci:\n  CIRCLECI_TOKEN: ${s}`],
  ['netlify-token', 'netlify_token', 'gha', (r) => 'nfp' + '_' + r(AN, 40), (s) => `      - run: netlify deploy --prod\n        env:\n          NETLIFY_AUTH_TOKEN: ${s}`],
  ['vercel-token', 'vercel_token', 'gha', (r) => r(AN, 24), (s) => `      - run: vercel --prod\n        env:\n          VERCEL_TOKEN: ${s}`],
  ['algolia-api-key', 'algolia_api_key', 'json', (r) => r(HEX, 32), (s) => `"AlgoliaAdminApiKey": "${s}"`],
  ['facebook-app-secret', 'facebook_app_secret', 'json', (r) => r(HEX, 32), (s) => `"FacebookAppSecret": "${s}"`],
  ['azure-devops-pat-legacy', 'azure_devops_pat', 'azp', (r) => r(B32, 52), (s) => `- script: az pipelines run --name release\n  env:\n    AZURE_DEVOPS_EXT_PAT: ${s}`],
  // Contexts of issue 39 (each besides its rule's own sample): XML, Dockerfile, .env, command lines, manifests, C#.
  ['secret-named-key', 'generic_secret', 'xml', (r) => r(AN, 14), (s) => `<PropertyGroup><SmtpPassword>${s}</SmtpPassword></PropertyGroup>`],
  ['secret-named-key', 'generic_secret', 'xml', (r) => r(AN, 14), (s) => `<ItemGroup><add key="MailPassword" value="${s}" /></ItemGroup>`],
  ['secret-named-key', 'generic_secret', 'docker', (r) => r(AN, 16), (s) => `ENV DB_PASSWORD ${s}`],
  ['secret-named-key', 'generic_secret', 'env', (r) => r(AN, 16), (s) => `DB_PASSWORD=${s}`],
  ['secret-named-key', 'generic_secret', 'cs', (r) => r(AN, 14), (s) => `    static SqlConnectionStringBuilder V() => new() { DataSource = "db", UserID = "app", Password = "${s}" };`],
  ['sqlcmd-password', 'database_password', 'sh', (r) => r(AN, 14), (s) => `sqlcmd -S db -U sa -P '${s}' -i seed.sql`],
  ['mysql-password', 'database_password', 'docker', (r) => r(AN, 14), (s) => `RUN mysql -u root -p${s} -e "create database shop"`],
  ['stdin-fed-secret', 'generic_secret', 'sh', (r) => r(AN, 20), (s) => `echo -n ${s} | docker login registry.example.com -u ci --password-stdin`],
  ['kubernetes-secret-data', 'kubernetes_secret', 'yaml', (r) => r(AN, 18), (s) => `---\napiVersion: v1\nkind: Secret\nmetadata:\n  name: api\nstringData:\n  value: ${s}`],
  ['cli-secret-option', 'generic_secret', 'azp', (r) => r(AN, 18), (s) => `- script: az login --service-principal -u http://deploy --password ${s} --tenant contoso.onmicrosoft.com`],
  ['azure-storage-key-argument', 'azure_storage_account_key', 'gha', (r) => r(B64, 86) + '==', (s) => `      - run: az storage blob upload-batch --account-name contoso --account-key ${s} -d drops -s out`],
  ['url-token-userinfo', 'url_credentials', 'gha', (r) => r(B32, 52), (s) => `      - run: git push https://${s}@dev.azure.com/contoso/shop/_git/shop HEAD:main`],
  ['api-key-header', 'api_key_header', 'md', (r) => r(HEX, 32), (s) => '```sh\ncurl -X POST -H "DD-API-KEY: ' + s + '" https://api.datadoghq.com/api/v2/series\n```'],
  ['http-basic-auth', 'http_basic_auth', 'cs', (r) => b64('deploy:' + r(AN, 12)), (s) => `    static readonly string V = "Basic ${s}";`],
  ['basic-credentials-base64', 'http_basic_auth', 'json', (r) => b64('ci:' + r(AN, 16)), (s) => `"auths": { "ghcr.io": { "auth": "${s}" } }`],
  // Shapes and contexts only (issue 39): no secret-named key anywhere near them.
  ['dropbox-short-lived-token', 'dropbox_token', 'json', (r) => 's' + 'l.' + r(URL, 138), (s) => `"Sync": "${s}"`],
  ['azure-storage-key-context', 'azure_storage_account_key', 'cs', (r) => r(B64, 86) + '==', (s) => `    // blob storage of the contoso account\n    public const string Primary = "${s}";`],
  ['datadog-key-context', 'datadog_api_key', 'yaml', (r) => r(HEX, 32), (s) => `metrics:\n  provider: datadog\n  value: ${s}`],
  ['azure-devops-pat-context', 'azure_devops_pat', 'gha', (r) => r(B32, 52), (s) => `      - run: git clone https://dev.azure.com/contoso/shop/_git/shop\n        env:\n          V: ${s}`],
  ['basic-credentials-literal', 'http_basic_auth', 'json', (r) => b64('ops:' + r(AN, 14)), (s) => `"Probe": "${s}"`],
  ['dotnet-rsa-private-key', 'private_key', 'xml', (r) => r(B64, 86) + '==', (s) => `<RSAKeyValue>\n    <Modulus>${s}</Modulus>\n    <Exponent>AQAB</Exponent>\n    <D>${s.slice(0, 40)}==</D>\n  </RSAKeyValue>`],
];

const FILE: Record<Format, (n: number) => string> = {
  cs: (n) => `src/Fixture/Case${n}.cs`,
  json: (n) => `config/case${n}/appsettings.json`,
  yaml: (n) => `deploy/case${n}.yml`,
  md: (n) => `docs/case${n}.md`,
  gha: (n) => `.github/workflows/case${n}.yml`,
  azp: (n) => `pipelines/case${n}/azure-pipelines.yml`,
  xml: (n) => `config/case${n}/Directory.Build.props`,
  sh: (n) => `scripts/case${n}.sh`,
  docker: (n) => `docker/case${n}/app.dockerfile`,
  env: (n) => `config/case${n}.env`,
};

const PAD = 130;

function wrap(format: Format, n: number, marker: string, line: string): string {
  const pad = (f: (i: number) => string) => Array.from({ length: PAD }, (_, i) => f(i)).join('\n');
  switch (format) {
    case 'cs':
      return `namespace Fixture.Case${n};\n\n/// <summary>${marker} settings.</summary>\npublic static class Case${n}Settings\n{\n` +
        pad((i) => `    public static int Padding${i}() => ${i};`) + `\n\n${line}\n}\n`;
    case 'json':
      return `{\n  "${marker}": "settings",\n  "Padding": {\n` + pad((i) => `    "P${i}": ${i},`) + `\n    "Last": 0\n  },\n  ${line}\n}\n`;
    case 'yaml':
      return `# ${marker} settings\npadding:\n` + pad((i) => `  - item${i}`) + `\n${line}\n`;
    case 'md':
      return `# Case ${n}\n\n${marker} explains the release.\n\n## Background\n\n` + pad((i) => `Line ${i} of the background section.`) + `\n\n## Setup\n\n${line}\n`;
    case 'gha':
      return `name: case${n}\non: push\n# ${marker} workflow\njobs:\n  pad:\n    runs-on: ubuntu-latest\n    steps:\n` +
        pad((i) => `      - run: echo step ${i}`) + `\n  deploy:\n    runs-on: ubuntu-latest\n    steps:\n${line}\n`;
    case 'azp':
      return `trigger:\n- main\n# ${marker} pipeline\nsteps:\n` + pad((i) => `- script: echo step ${i}`) + `\n${line}\n`;
    case 'xml':
      return `<Project>\n  <!-- ${marker} settings -->\n  <PropertyGroup>\n` + pad((i) => `    <Padding${i}>${i}</Padding${i}>`) + `\n  </PropertyGroup>\n  ${line}\n</Project>\n`;
    case 'sh':
      return `#!/bin/sh\n# ${marker} script\n` + pad((i) => `echo "step ${i}"`) + `\n${line}\n`;
    case 'docker':
      return `FROM alpine:3.20\n# ${marker} image\n` + pad((i) => `RUN echo step ${i}`) + `\n${line}\n`;
    case 'env':
      return `# ${marker} settings\n` + pad((i) => `SETTING_${i}=value${i}`) + `\n${line}\n`;
  }
}

/** The fixture: every case with its file, secret and marker (deterministic for a seed): the placements above, then every rule's own sample. */
export function secretCases(seed = 17_001): SecretCase[] {
  const next = mulberry32(seed);
  const r: Gen = (alphabet, n) => Array.from({ length: n }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
  const uuid = () => [8, 4, 4, 4, 12].map((n) => r(HEX, n)).join('-');
  const cases: SecretCase[] = [];
  const add = (rule: string, kind: string, format: Format, pieces: string[], line: string) => {
    const n = cases.length;
    const marker = `Marker${n}q${r(LOW, 6)}`;
    const content = wrap(format, n, marker, line);
    const at = content.split('\n').findIndex((l) => pieces.some((p) => l.includes(p.split('\n')[0]))) + 1;
    cases.push({ rule, kind, format, pieces, line: at, path: FILE[format](n), content, marker });
  };
  for (const [rule, kind, format, secret, line] of SPECS) {
    const v = secret(r, uuid);
    add(rule, kind, format, [v, v.slice(-16)], line(v));
  }
  const gen = generator(seed + 1);
  for (const rule of SECRET_RULES) {
    const x = expand(rule.sample.hit, gen);
    add(rule.id, rule.kind, rule.sample.in, x.pieces.length ? x.pieces : x.runs, x.text);
  }
  return cases;
}

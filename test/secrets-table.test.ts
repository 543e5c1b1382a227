// The secret rule table (core/scan/secret-rules.ts), row by row: every rule's sample hit is found by
// that rule on the sample's lines, its near miss by no rule at all; the table covers at least 100
// kinds and every provider of gitleaks' default rule set (by name, in hci's own kinds and ids); and
// the contexts issue 39 names — a C# object initializer, sqlcmd -P, mysql -p…, --password,
// password=, a literal piped into --password-stdin, a Kubernetes Secret, a Dockerfile ENV, the
// shapes that leaked (Discord bot token, Atlassian ATATT3, Hugging Face, Square EAAA, GitLab runner
// GR1348941, AWS STS session token, Okta SSWS, 1Password secret key, Dropbox sl., Airtable pat,
// .NET RSAKeyValue) and the values only context can give away (a bare Azure storage key, a Datadog
// key, an Azure DevOps PAT, base64 user:password) — each with weak variable names.
// @lane unit
import { describe, expect, it } from 'vitest';
import { findSecretLines } from '../core/scan/secrets.ts';
import { SECRET_RULES } from '../core/scan/secret-rules.ts';
import { expand, FORMAT_LANG, generator } from './helpers/secret-samples.ts';

/** gitleaks' default rule set (config/gitleaks.toml, 222 rules) by provider: the word each provider's rules are known by. */
const GITLEAKS_PROVIDERS = [
  '1password|onepassword', 'adafruit', 'adobe', 'age', 'airtable', 'algolia', 'alibaba', 'anthropic', 'artifactory', 'asana', 'atlassian', 'authress',
  'aws', 'azure', 'beamer', 'bitbucket', 'bittrex', 'meraki', 'clickhouse', 'clojars', 'cloudflare', 'codecov', 'cohere', 'coinbase',
  'confluent', 'contentful', 'curl', 'databricks', 'datadog', 'defined_networking', 'digitalocean', 'discord', 'doppler', 'droneci', 'dropbox',
  'duffel', 'dynatrace', 'easypost', 'etsy', 'facebook', 'fastly', 'finicity', 'finnhub', 'flickr', 'flutterwave', 'flyio', 'frameio',
  'gcp|google', 'github', 'gitlab', 'gitter', 'gocardless', 'grafana', 'harness', 'terraform', 'heroku', 'hubspot', 'huggingface', 'infracost',
  'intercom', 'intra42', 'jfrog|artifactory', 'jwt', 'kraken', 'kubernetes', 'kucoin', 'launchdarkly', 'linear', 'linkedin', 'lob', 'looker',
  'mailchimp', 'mailgun', 'mapbox', 'mattermost', 'maxmind', 'messagebird', 'teams', 'netlify', 'newrelic|new-relic', 'notion', 'npm', 'nuget',
  'nytimes', 'octopus', 'okta', 'openai', 'openshift', 'perplexity', 'plaid', 'planetscale', 'postman', 'prefect', 'private_key', 'privateai',
  'pulumi', 'pypi', 'rapidapi', 'readme', 'rubygems', 'scalingo', 'sendbird', 'sendgrid', 'brevo', 'sentry', 'settlemint', 'shippo', 'shopify',
  'sidekiq', 'slack', 'snyk', 'sonar', 'sourcegraph', 'square', 'squarespace', 'stripe', 'sumologic', 'telegram', 'travisci', 'twilio', 'twitch',
  'twitter', 'typeform', 'vault', 'yandex', 'zendesk', 'generic',
];

const r = generator(39_001);
const rows = SECRET_RULES.map((rule) => ({ rule, hit: expand(rule.sample.hit, r), miss: rule.sample.miss, lang: FORMAT_LANG[rule.sample.in] }));

describe('the secret rule table', () => {
  it('covers at least 100 kinds, every rule with a sample hit and a near miss', () => {
    expect(new Set(SECRET_RULES.map((x) => x.kind)).size).toBeGreaterThanOrEqual(100);
    expect(new Set(SECRET_RULES.map((x) => x.id)).size).toBe(SECRET_RULES.length);
    for (const x of SECRET_RULES) {
      expect(x.sample.hit, x.id).toMatch(/«/);
      expect(x.sample.miss.length, x.id).toBeGreaterThan(0);
    }
  });

  it('covers every provider of gitleaks\' default rule set', () => {
    const names = SECRET_RULES.map((x) => `${x.id} ${x.kind}`.replace(/-/g, '_').toLowerCase());
    const missing = GITLEAKS_PROVIDERS.filter((p) => !p.split('|').some((w) => names.some((n) => n.includes(w.replace(/-/g, '_')))));
    expect(missing).toEqual([]);
  });

  it.each(rows.map((x) => [x.rule.id, x] as const))('%s finds its sample hit', (_id, { rule, hit, lang }) => {
    const found = findSecretLines(hit.text, lang);
    const lines = hit.text.split('\n');
    const secretLines = lines.flatMap((l, i) => (hit.runs.some((p) => l.includes(p)) ? [i + 1] : []));
    expect(secretLines.length, 'the sample holds a generated secret').toBeGreaterThan(0);
    const mine = found.filter((f) => f.rule === rule.id && f.kind === rule.kind);
    expect(mine.length, `${hit.text}\n${JSON.stringify(found)}`).toBeGreaterThan(0);
    for (const l of secretLines) expect(found.some((f) => f.startLine <= l && f.endLine >= l), `line ${l} of ${hit.text}`).toBe(true);
  });

  it.each(rows.map((x) => [x.rule.id, x] as const))('%s: nothing flags its near miss', (_id, { miss, lang }) => {
    expect(findSecretLines(miss, lang), miss).toEqual([]);
  });
});

// Secret detection: content patterns (right lines, right kind, no false positives) and the file-name
// denylist. Every fake secret is assembled by concatenation so this file holds no literal token.
// @lane unit
import { describe, expect, it } from 'vitest';
import { findSecretLines, isSecretPath } from '../core/scan/secrets.ts';

const A36 = 'A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8';
const fake = {
  awsId: 'AK' + 'IA' + 'Q3EGRT5KZ7XPLM2N',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYZX3KQ9PLMN02',
  ghp: 'gh' + 'p_' + A36,
  ghs: 'gh' + 's_' + A36,
  ghPat: 'github' + '_pat_' + '11ABCDEFG0123456789_' + 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV',
  glpat: 'gl' + 'pat-' + 'xY7zQ2wE9rT4yU1iO3pA',
  slack: 'xo' + 'xb-' + '123456789012-1234567890123-' + 'AbCdEfGhIjKlMnOpQrStUvWx',
  slackHook: 'https://hooks.slack.com/services/' + 'T0123ABCD/' + 'B0123ABCD/' + 'aBcDeFgHiJkLmNoPqRsTuVwX',
  openai: 's' + 'k-' + 'Zq8Xw2Ev5Rt7Yu1Io3Pa' + 'T3BlbkFJ' + 'Lk9Jh6Gf4Ds2Az0Xc8Vb',
  openaiProj: 's' + 'k-proj-' + 'Ab_Cd-Ef0123456789GhIjKlMnOpQrStUv',
  anthropic: 's' + 'k-ant-' + 'api03-' + 'Xy_Z0123456789abcdefGHIJKLmnop-QRST',
  stripe: 's' + 'k_live_' + '51HqLmNoPqRsTuVwXyZ0123456',
  google: 'AI' + 'za' + 'SyD3x7Qm9Lp2Wn5Rt8Vb1Kc4Hj6Fg0Ds3Aq',
  jwt: 'ey' + 'JhbGciOiJIUzI1NiJ9' + '.' + 'ey' + 'JzdWIiOiIxMjM0NTY3ODkwIn0' + '.' + 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U',
};
const pemLabel = (kind: string) => `${kind}PRIVATE KEY`;
const begin = (label: string) => '-----' + 'BEGIN ' + label + '-----';
const end = (label: string) => '-----' + 'END ' + label + '-----';
const B64 = 'MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MhgHcTz6sE2I2yPB';

/** [line text, expected kind or null]; the 1-based line number is the index + 1. */
const FIXTURE: Array<[string, string | null]> = [
  ['# fake secrets for tests', null],
  [begin(pemLabel('RSA ')), 'private_key'],
  [B64, 'private_key'],
  [B64, 'private_key'],
  [end(pemLabel('RSA ')), 'private_key'],
  ['aws_access_key_id = ' + fake.awsId, 'aws_access_key_id'],
  ['aws_secret_access_key = ' + fake.awsSecret, 'aws_secret_access_key'],
  ['export GITHUB_TOKEN_VALUE=' + fake.ghp, 'github_token'],
  ['server token ' + fake.ghs, 'github_token'],
  ['pat: ' + fake.ghPat, 'github_token'],
  ['CI_JOB_AUTH=' + fake.glpat, 'gitlab_token'],
  ['slack = "' + fake.slack + '"', 'slack_token'],
  ['webhook_url: ' + fake.slackHook, 'slack_webhook'],
  ['OPENAI = "' + fake.openai + '"', 'openai_key'],
  ['openai.key=' + fake.openaiProj, 'openai_key'],
  ['ANTHROPIC=' + fake.anthropic, 'anthropic_key'],
  ['Stripe: ' + fake.stripe, 'stripe_key'],
  ['maps_key: "' + fake.google + '"', 'google_api_key'],
  ['Authorization: Bearer ' + fake.jwt, 'jwt'],
  ['  "Password": "hunter2",', 'generic_secret'],
  ['password: hunter2', 'generic_secret'],
  ['api_key = "abc123def456"', 'generic_secret'],
  ['    public string Password { get; set; } = "P@ssw0rd!";', 'generic_secret'],
  ['    Password = "P@ssw0rd!",', 'generic_secret'],
  ['client_secret: "Q9x-verysecret"', 'generic_secret'],
  ['DB_PASSWORD=hunter2', 'generic_secret'],
  ['    <add key="SmtpPassword" value="mail-pass-1" />', 'generic_secret'],
  ['    <ApiKey>k-8812-secret</ApiKey>', 'generic_secret'],
  ['  "Default": "Server=db;Database=shop;User Id=sa;Password=Sup3r!Pass;"', 'connection_string_password'],
  ['conn = "Data Source=.;Initial Catalog=x;Uid=app;Pwd=s3cr3t;"', 'connection_string_password'],
  ['DATABASE_URL=postgres://admin:' + 's3cretpw@db.example.com:5432/shop', 'url_credentials'],
  ['', null],
  // --- false positives: none of these may be reported
  ['password = ""', null],
  ['password: ${DB_PASSWORD}', null],
  ['password: "{{ secrets.DB_PASSWORD }}"', null],
  ['  client_secret: ${{ secrets.CLIENT_SECRET }}', null],
  ['  "Password": "<your-password>",', null],
  ['password: changeme', null],
  ['        Password = model.Password;', null],
  ['        user.Password = request.Password,', null],
  ['    public string PasswordHash { get; set; }', null],
  ['        entity.PasswordHash = "AQAAAAIAAYagAAAAEHash";', null],
  ['    [DataType(DataType.Password)]', null],
  ['    if (password == "") return;', null],
  ['    secrets: inherit', null],
  ['    token: ${{ secrets.GITHUB_TOKEN }}', null],
  ['Enter your password: then press Enter.', null],
  ['    var pwd = GetPassword();', null],
  ['password: !vault |', null],
  ['  "ConnectionString": "Server=db;Database=shop;Integrated Security=true;"', null],
  ['  "Default": "Server=db;User Id=sa;Password=;"', null],
  ['  "Password": "",', null],
  ['<button class="task-management-system-long-name-x">', null],
  ['    [Required, StringLength(100)] public string ConfirmPassword { get; init; } = string.Empty;', null],
  ['    const passwordInput = document.getElementById("password");', null],
  ['DB_PASSWORD=$DB_PASSWORD', null],
  ['see https://example.com:8080/path@v2', null],
  ['"password": "string"', null],
  // look-alikes of the token, header and key-name rules
  ['<ui:CommandBarFlyout Placement="Right" x:Key="CommandBarFlyout1">', null],
  ['    const string Key = "c891a2b4-5d6e-4f70-8a9b-0c1d2e3f4a5b";', null],
  ['<Reference Include="System.Web, Version=4.0.0.0, Culture=neutral, PublicKeyToken=b03f5f7f11d50a3a" />', null],
  ['  "x-api-key": "${{ secrets.API_KEY }}",', null],
  ['    client.DefaultRequestHeaders.Add("Authorization", $"Bearer {accessToken}");', null],
  ['    - run: echo "$PASS" | docker login -u ci --password-stdin registry.example.com', null],
  ['npm config set //registry.npmjs.org/:_authToken ${NPM_TOKEN}', null],
  ['  "Token": "CancellationToken",', null],
  ['  "PublicKeyToken": "b77a5c561934e089",', null],
  ['  "PublicKeyToken": "31bf3856ad364e35a1b2",', null],
  ['token = "gh' + 'p_' + 'x'.repeat(36) + '"', null],
  ['    var resourceKey = "ScrollBarCornerRadius2";', null],
  // an icon named Password (MudBlazor's Icons/Material/Filled.cs): SVG markup, not a password
  ['    public const string Password = "<g><path d=\\"M0,0h24v24H0V0z\\" fill=\\"none\\"/></g><g><path d=\\"M2,17h20v2H2V17z M3.15,12.95L4,11.47\\"/></g>";', null],
  ['    public const string Key = "M7 14c-1.66 0-3 1.34-3 3 0 1.31-1.16 2-2 2";', null],
  // values made of words holding the key's own word: a name, not a secret (excalidraw, v2rayN)
  ['  OAI_API_KEY: "excalidraw-oai-api-key",', null],
  ['          "password": "custom_password"', null],
];

const expected = (fixture: Array<[string, string | null]>) =>
  fixture.flatMap(([, kind], i) => (kind ? [{ line: i + 1, kind }] : []));
/** Expands findings to one {line, kind} per covered line. */
const perLine = (text: string, lang?: string) =>
  findSecretLines(text, lang).flatMap((f) =>
    Array.from({ length: f.endLine - f.startLine + 1 }, (_, k) => ({ line: f.startLine + k, kind: f.kind })),
  );

describe('findSecretLines', () => {
  const text = FIXTURE.map(([l]) => l).join('\n') + '\n';

  it('detects each kind on the right lines, and nothing else', () => {
    expect(perLine(text)).toEqual(expected(FIXTURE));
    expect(new Set(expected(FIXTURE).map((e) => e.kind)).size).toBe(15);
  });

  it('reports a PEM block as one range', () => {
    expect(findSecretLines(text)[0]).toEqual({ startLine: 2, endLine: 5, kind: 'private_key', rule: 'private-key' });
  });

  it('gives the same lines for CRLF and CR line endings', () => {
    const want = findSecretLines(text);
    expect(findSecretLines(FIXTURE.map(([l]) => l).join('\r\n') + '\r\n')).toEqual(want);
    expect(findSecretLines(FIXTURE.map(([l]) => l).join('\r'))).toEqual(want);
  });

  it('returns ranges and kinds only, never the secret text', () => {
    for (const f of findSecretLines(text)) expect(Object.keys(f).sort()).toEqual(['endLine', 'kind', 'rule', 'startLine']);
  });

  it('runs an unterminated private key block to the end of the file', () => {
    const label = pemLabel('OPENSSH ');
    const t = ['line one', begin(label), B64, B64].join('\n') + '\n';
    expect(findSecretLines(t)).toEqual([{ startLine: 2, endLine: 4, kind: 'private_key', rule: 'private-key' }]);
    expect(findSecretLines(t.trimEnd())).toEqual([{ startLine: 2, endLine: 4, kind: 'private_key', rule: 'private-key' }]);
  });

  it('in code languages only quoted literals count for assignments', () => {
    const t = 'const login = {\n  password: hashedPassword\n};\nconst x = { password: "hunter2" };\n';
    expect(perLine(t)).toEqual([{ line: 2, kind: 'generic_secret' }, { line: 4, kind: 'generic_secret' }]);
    expect(perLine(t, 'typescript')).toEqual([{ line: 4, kind: 'generic_secret' }]);
    expect(perLine('Password = "P@ss1";', 'csharp')).toEqual([{ line: 1, kind: 'generic_secret' }]);
  });

  it('finds the one token at the end of a 500 KiB file', () => {
    const block = [
      'public sealed class AccountService(IUserStore store, IPasswordHasher hasher)',
      '{',
      '    public async Task<bool> CheckPasswordAsync(User user, string password)',
      '        => hasher.Verify(user.PasswordHash, password);',
      '    // the secret sauce: https://example.com/docs/task-runner',
      '}',
    ].join('\n') + '\n';
    const big = block.repeat(Math.ceil((500 * 1024) / block.length));
    const input = big + 'x = "' + fake.ghp + '"\n';
    // How long it takes is a row of `npm run bench` (bench/latency.ts), not an assertion here.
    const found = findSecretLines(input);
    expect(found).toEqual([{ startLine: found[0].startLine, endLine: found[0].startLine, kind: 'github_token', rule: 'github-token' }]);
  });

  it('judges each text on its own: what an earlier text held does not carry over', () => {
    // The trigger scan marks the buckets whose triggers it found, per scan (a stamp, not a copy of the table per file).
    const alone = FIXTURE.map(([l]) => perLine(l + '\n'));
    for (let i = 0; i < 3; i++) expect(perLine(text)).toEqual(expected(FIXTURE));
    expect(FIXTURE.map(([l]) => perLine(l + '\n'))).toEqual(alone);
    expect(findSecretLines('x = "' + fake.ghp + '"\n')).toHaveLength(1);
  });
});

describe('isSecretPath', () => {
  it('denies credential file names and directories', () => {
    for (const p of [
      '.env', 'src/.env', '.env.local', '.env.production', 'certs/server.pem', 'tls/site.key', 'a/store.p12', 'b/cert.pfx',
      'id_rsa', 'home/id_rsa.pub', 'id_ed25519', 'id_ecdsa', 'id_dsa', '.npmrc', '.pypirc', '.netrc', '.git-credentials',
      'credentials', 'config/credentials.json', 'credentials.yml.enc', 'android/release.keystore', 'app.jks',
      '.ssh/config', 'home/.aws/config', '.gnupg/pubring.kbx', 'ops/.kube/config', 'CERT.PEM',
    ]) {
      expect(isSecretPath(p), p).toBe(true);
    }
  });

  it('keeps templates and look-alikes indexable', () => {
    for (const p of [
      '.env.example', '.env.sample', '.env.template', 'src/environment.ts', 'src/CredentialsService.cs', 'keys.json',
      'docs/ssh.md', 'src/KeyVault.cs', 'env/config.json', 'monkey.ts', 'aws/README.md',
    ]) {
      expect(isSecretPath(p), p).toBe(false);
    }
  });
});

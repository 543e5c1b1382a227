// Secrets never enter the index, end to end: a workspace full of fake credentials (built by
// concatenation, so this repository holds none) is indexed, and not one byte of any secret is found
// in the index folder nor in any stored text once decompressed; the files and chunks left out are counted.
// @lane cli
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import { withTmpWorkspace } from './helpers/tmp-workspace.ts';
import { storedPlainTexts } from './helpers/hci-process.ts';

const A = (n: number) => 'A1b2C3d4E5'.repeat(10).slice(0, n);
const secrets = {
  pem: ['-----BEGIN RSA ', 'PRIVATE KEY-----\nMIIEowIBAAKCAQEA', A(60), '\n-----END RSA PRIVATE KEY-----'].join(''),
  aws: 'AKIA' + 'Z7Q2XK4LM3NP5RT8',
  awsSecret: 'wJalrXUtnFEMI/K7MDENG/' + 'bPxRfiCYEXAMPLEKEYzz',
  ghp: 'gh' + 'p_' + A(36),
  ghPat: 'github' + '_pat_' + A(40),
  glpat: 'gl' + 'pat-' + A(20),
  slack: 'xo' + 'xb-' + '1234567890-' + A(24),
  slackHook: 'https://hooks.slack' + '.com/services/T0000AAAA/B0000BBBB/' + A(24),
  openai: 's' + 'k-proj-' + A(40),
  anthropic: 's' + 'k-ant-api03-' + A(40),
  stripe: 's' + 'k_live_' + A(24),
  google: 'AI' + 'za' + A(35),
  jwt: 'ey' + 'JhbGciOiJIUzI1NiJ9.ey' + 'JzdWIiOiIxMjM0NTY3ODkwIn0.' + A(30),
  jsonPassword: 'hunter2-' + A(12),
  yamlPassword: 'correct-horse-' + A(10),
  csPassword: 'P@ss-' + A(14),
  connPassword: 'Zx9-' + A(16),
  envValue: 'env-only-' + A(16),
  rsaFile: 'ssh-private-' + A(30),
  npmrc: 'npm_' + A(36),
  awsCreds: 'aws-creds-' + A(20),
};

describe('secrets in the index', () => {
  it('keeps every secret out of the index file while indexing the rest', async () => {
    await withTmpWorkspace(
      {
        'src/Keys.cs': `namespace Demo;\npublic static class Keys\n{\n    public const string Github = "${secrets.ghp}";\n    public const string Aws = "${secrets.aws}";\n}\n`,
        'src/Clean.cs': 'namespace Demo;\npublic class CleanCode\n{\n    public void VisibleMethod() { }\n}\n',
        'src/Settings.cs': `namespace Demo;\npublic class DbSettings\n{\n    public string Password = "${secrets.csPassword}";\n}\n`,
        'src/appsettings.json': `{\n  "Database": {\n    "Password": "${secrets.jsonPassword}",\n    "Conn": "Server=db;User Id=app;Password=${secrets.connPassword};"\n  }\n}\n`,
        'deploy/pipeline.yml': `jobs:\n  deploy:\n    env:\n      password: ${secrets.yamlPassword}\n      AWS_SECRET_ACCESS_KEY: ${secrets.awsSecret}\n`,
        'config/tokens.toml': `gitlab = "${secrets.glpat}"\nslack = "${secrets.slack}"\nhook = "${secrets.slackHook}"\n`,
        'web/app.js': `const openai = "${secrets.openai}";\nconst anthropic = "${secrets.anthropic}";\nconst stripe = "${secrets.stripe}";\nconst google = "${secrets.google}";\nconst jwt = "${secrets.jwt}";\nconst pat = "${secrets.ghPat}";\n`,
        'docs/key.md': `# Key\n\n${secrets.pem}\n`,
        '.env': `API_KEY=${secrets.envValue}\n`,
        'certs/server.pem': secrets.pem,
        'home/.ssh/id_rsa': secrets.rsaFile,
        '.npmrc': `//registry.example/:_authToken=${secrets.npmrc}\n`,
        'home/.aws/credentials': `[default]\naws_secret_access_key=${secrets.awsCreds}\n`,
        'credentials.json': `{"token": "${secrets.awsCreds}"}\n`,
      },
      async (ws) => {
        const w = await openWorkspace(ws.root);
        try {
          const s = await w.index();
          expect(s.skipped.secret_name).toBeGreaterThanOrEqual(6);
          expect(s.skipped.secret_content).toBeGreaterThanOrEqual(6);
          expect((await w.search({ query: 'VisibleMethod' })).hits[0]?.path).toBe('src/Clean.cs');
          for (const value of Object.values(secrets)) {
            const r = await w.search({ query: value.slice(0, 40) });
            expect(r.hits.filter((h) => h.snippet.includes(value.slice(0, 12)))).toEqual([]);
          }
          const status = await w.status();
          expect(status.skipped.secret_name).toBe(s.skipped.secret_name);
        } finally {
          w.close();
        }
        const dir = ws.abs('.hci');
        // The raw files, and every stored text decompressed (chunk text is kept deflated per file).
        const inflated = storedPlainTexts(path.join(dir, 'index.sqlite'));
        expect(inflated.some((t) => t.includes('VisibleMethod'))).toBe(true);
        const bytes = [...fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f))), ...inflated.map((t) => Buffer.from(t, 'utf8'))];
        for (const [name, value] of Object.entries(secrets)) {
          for (const b of bytes) {
            for (const piece of [value, value.slice(0, 16), value.slice(-16)]) {
              expect(b.includes(Buffer.from(piece, 'utf8')), `${name} found in the index`).toBe(false);
            }
          }
        }
      },
    );
  });
});

describe('secret skip counts', () => {
  it('keep counting chunks left out for secrets after incremental and targeted passes', async () => {
    const key = 'gh' + 'p_' + A(36);
    await withTmpWorkspace(
      {
        'src/Keys.cs': `namespace Demo;\npublic static class Keys\n{\n    public const string Github = "${key}";\n}\n`,
        'src/Clean.cs': 'namespace Demo;\npublic class CleanCode\n{\n    public void VisibleMethod() { }\n}\n',
      },
      async (ws) => {
        const w = await openWorkspace(ws.root);
        try {
          const first = (await w.index()).skipped.secret_content;
          expect(first).toBeGreaterThan(0);
          const counts = async () => [(await w.status()).skipped.secret_content, (await w.search({ query: 'VisibleMethod' })).skipped.secret_content];
          expect(await counts()).toEqual([first, first]);
          // An incremental pass that re-reads only the clean file.
          fs.writeFileSync(ws.abs('src/Clean.cs'), 'namespace Demo;\npublic class CleanCode\n{\n    public void VisibleMethod2() { }\n}\n');
          const incr = await w.index();
          expect(incr.files_indexed).toBe(1);
          expect(incr.skipped.secret_content).toBe(first);
          expect(await counts()).toEqual([first, first]);
          // Nothing changed at all.
          expect((await w.index()).skipped.secret_content).toBe(first);
          expect(await counts()).toEqual([first, first]);
          // A pass over some paths (a watcher's) keeps the total too.
          fs.writeFileSync(ws.abs('src/Clean.cs'), 'namespace Demo;\npublic class CleanCode\n{\n    public void VisibleMethod3() { }\n}\n');
          await w.index({ paths: ['src/Clean.cs'] });
          expect(await counts()).toEqual([first, first]);
          // The secret goes away: so does the count.
          fs.writeFileSync(ws.abs('src/Keys.cs'), 'namespace Demo;\npublic static class Keys\n{\n    public const string Github = "";\n}\n');
          await w.index({ paths: ['src/Keys.cs'] });
          expect(await counts()).toEqual([undefined, undefined]);
          expect((await w.index({ full: true })).skipped.secret_content).toBeUndefined();
        } finally {
          w.close();
        }
      },
    );
  });
});

// Secret coverage, end to end: a workspace with one fake secret per file (test/helpers/secret-fixture.ts:
// every rule of the table by its own sample, weak variable names, plus the contexts issue 39 names —
// 100+ kinds, in C#, JSON, YAML, Markdown, GitHub Actions, Azure Pipelines, MSBuild XML, shell,
// Dockerfile and .env files) is indexed by the real pipeline. Each secret must be found by its rule,
// and none of its text may reach the index: not the index folder's bytes, not the inflated file_data
// blobs, not the FTS index (queried for the secret's tokens by Debian's sqlite3), not search snippets,
// `explain`, nor the MCP server's answers; the rest of each file stays indexed and searchable.
// @lane cli
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWorkspace, type HciWorkspace } from '../runtimes/node/index.ts';
import { findSecretLines } from '../core/scan/secrets.ts';
import { SECRET_RULES } from '../core/scan/secret-rules.ts';
import { languageOf } from '../core/scan/languages.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';
import { ensureBuilt, sqliteRows, storedPlainTexts } from './helpers/hci-process.ts';
import { startStdio } from './helpers/mcp-harness.ts';
import { SECRET_FIXTURE_SETTINGS, secretCases, type SecretCase } from './helpers/secret-fixture.ts';

const cases = secretCases();
/** What must never be found: the secret's generated runs (the whole secret and its random last 16 characters). */
const pieces = (c: SecretCase) => c.pieces.filter((p) => p.length >= 8);
/** The secret's word-like parts as FTS would tokenise them (long ones: short parts could occur anywhere). */
const ftsTokens = (c: SecretCase) => [...new Set(pieces(c).flatMap((p) => p.split(/[^A-Za-z0-9]+/)).filter((t) => t.length >= 10))];
const leaks = (text: string) => cases.filter((c) => pieces(c).some((p) => text.includes(p))).map((c) => `${c.rule} (${c.path})`);
const settingsToml = `include_extensions = [${SECRET_FIXTURE_SETTINGS.include_extensions.map((e) => JSON.stringify(e)).join(', ')}]\n`;

let ws: TmpWorkspace;
let w: HciWorkspace;

beforeAll(async () => {
  ensureBuilt();
  ws = await createTmpWorkspace({ ...Object.fromEntries(cases.map((c) => [c.path, c.content])), '.hci/settings.toml': settingsToml }, 'hci-secrets-');
  w = await openWorkspace(ws.root);
  const s = await w.index();
  expect(s.files_indexed).toBe(cases.length);
  expect(s.skipped.secret_content).toBeGreaterThanOrEqual(cases.length); // at least the chunk holding each secret
}, 120_000);

afterAll(async () => {
  w?.close();
  await ws?.cleanup();
});

describe('the secrets fixture', () => {
  it('holds 100+ kinds, every rule of the table, in every format, one secret per file', () => {
    const kinds = new Set(cases.map((c) => c.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(100);
    expect(new Set(cases.map((c) => c.rule))).toEqual(new Set(SECRET_RULES.map((r) => r.id)));
    expect(new Set(cases.map((c) => c.format))).toEqual(new Set(['cs', 'json', 'yaml', 'md', 'gha', 'azp', 'xml', 'sh', 'docker', 'env']));
    for (const r of SECRET_RULES) expect(cases.find((c) => c.rule === r.id)?.kind, r.id).toBe(r.kind);
    expect(new Set(cases.map((c) => c.path)).size).toBe(cases.length);
  });

  it('finds each secret with its own rule, on its lines', () => {
    const missed: string[] = [];
    for (const c of cases) {
      const found = findSecretLines(c.content, languageOf(c.path));
      expect(c.line, c.rule).toBeGreaterThan(0);
      if (!found.some((f) => f.rule === c.rule && f.kind === c.kind && f.startLine <= c.line && f.endLine >= c.line)) {
        missed.push(`${c.rule} in ${c.path}: ${JSON.stringify(found)}`);
      }
    }
    expect(missed).toEqual([]);
  });
});

describe('indexed secrets', () => {
  it('keep the rest of each file searchable', async () => {
    for (const c of cases) {
      const r = await w.search({ query: c.marker });
      expect(r.hits.map((h) => h.path), c.rule).toContain(c.path);
    }
  });

  it('leave no byte in the index folder nor in any stored text', () => {
    const dir = path.join(ws.root, '.hci');
    for (const f of fs.readdirSync(dir)) {
      const bytes = fs.readFileSync(path.join(dir, f));
      const found = cases.filter((c) => pieces(c).some((p) => bytes.includes(Buffer.from(p, 'utf8')))).map((c) => c.rule);
      expect(found, f).toEqual([]);
    }
    const texts = storedPlainTexts(path.join(dir, 'index.sqlite'));
    expect(texts.length).toBe(cases.length);
    for (const t of texts) expect(leaks(t)).toEqual([]);
  });

  it('leave no token in the FTS index', () => {
    const tokens = [...new Set(cases.flatMap(ftsTokens))];
    expect(tokens.length).toBeGreaterThan(cases.length / 2);
    const db = path.join(ws.root, '.hci', 'index.sqlite');
    const hits: { token: string; n: number }[] = [];
    // SQLite allows 500 terms in one compound SELECT: ask in batches.
    for (let i = 0; i < tokens.length; i += 400) {
      const sql = tokens.slice(i, i + 400).map((t) => `SELECT '${t}' AS token, count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH '"${t}"'`).join(' UNION ALL ');
      hits.push(...sqliteRows<{ token: string; n: number }>(db, sql).filter((r) => r.n > 0));
    }
    expect(hits).toEqual([]);
    // The check itself finds what is indexed.
    expect(sqliteRows<{ n: number }>(db, `SELECT count(*) AS n FROM chunks_fts WHERE chunks_fts MATCH '"${cases[0].marker}"'`)[0].n).toBeGreaterThan(0);
  });

  it('show up in no search snippet and no explanation', async () => {
    // Searches for the secrets' own tokens: the answer echoes the query, so only the hits are checked.
    const hits: string[] = [];
    for (const c of cases) {
      for (const q of ftsTokens(c).slice(0, 2)) hits.push(JSON.stringify((await w.search({ query: q, limit: 10 })).hits));
    }
    expect(leaks(hits.join('\n'))).toEqual([]);
    // Searches for each file's marker, whose hits sit next to the dropped chunk: everything is checked.
    const answers: string[] = [];
    for (const c of cases) {
      const r = await w.search({ query: c.marker, limit: 10 });
      answers.push(JSON.stringify(r));
      for (const h of r.hits.slice(0, 2)) answers.push(JSON.stringify(await w.explain(h.hit_id)));
      answers.push(JSON.stringify(await w.outline(c.path)));
    }
    expect(answers.some((a) => a.includes('"explanation"'))).toBe(true);
    expect(leaks(answers.join('\n'))).toEqual([]);
  }, 120_000);

  it('show up in no MCP answer', async () => {
    w.close();
    const mcp = await startStdio(ws.root);
    try {
      const hits: string[] = [];
      const answers: string[] = [];
      for (const c of cases.filter((_, i) => i % 7 === 0)) {
        const bySecret = await mcp.call('search', { query: ftsTokens(c)[0] ?? pieces(c)[0] });
        hits.push(JSON.stringify(bySecret.structured?.hits ?? []));
        const a = await mcp.call('search', { query: c.marker });
        answers.push(a.text, JSON.stringify(a.structured));
        const hit = a.structured?.hits?.[0];
        if (hit) {
          const e = await mcp.call('explain_result', { hit_id: hit.hit_id });
          answers.push(e.text, JSON.stringify(e.structured));
        }
      }
      expect(answers.join('\n')).toMatch(/Marker\d+q/);
      expect(leaks(hits.join('\n'))).toEqual([]);
      expect(leaks(answers.join('\n'))).toEqual([]);
    } finally {
      await mcp.close();
      w = await openWorkspace(ws.root);
    }
  }, 120_000);
});

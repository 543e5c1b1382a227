// A secret leaves its chunk, not the code around it: a 40-line middleware whose doc comment shows
// `password: '<literal>'` is found by a word of its body, the literal is in no hit and no stored
// text, and status still counts the chunk that lost lines (secret content). carveSecrets' rules on
// drafts: parts before and after, the margin, tiny parts, a symbol named from a withheld line.
// The literals are built by concatenation, so this repository holds none.
// @lane unit
import { describe, it, expect } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import { carveSecrets, SECRET_MARGIN_LINES } from '../core/index/secret-carve.ts';
import { findSecretLines } from '../core/scan/secrets.ts';
import type { ChunkDraft } from '../core/chunk/types.ts';
import { readIndexedFile } from '../core/browse/files.ts';
import { withTmpWorkspace } from './helpers/tmp-workspace.ts';

const EXAMPLE_PASSWORD = 'zq' + 'hotproject';

function middleware(): string {
  return [
    "import type { MiddlewareHandler } from '../types'",
    '',
    '/**',
    ' * Basic authentication middleware.',
    ' *',
    ' * @example',
    ' * ```ts',
    " * app.use('/auth/*', gateKeeper({",
    " *     username: 'hono',",
    ` *     password: '${EXAMPLE_PASSWORD}',`,
    ' * }))',
    ' * ```',
    ' */',
    'export const gateKeeper = (options: { username: string; password: string }): MiddlewareHandler => {',
    '  return async function gateKeeperHandler(c, next) {',
    "    const header = c.req.header('Authorization')",
    '    const credentials = decodeBasicCredentials(header)',
    '    if (credentials && timingSafeCompare(credentials.username, options.username)) {',
    '      await next()',
    '      return',
    '    }',
    "    c.header('WWW-Authenticate', 'Basic realm=\"Secure Area\"')",
    '    return c.text(\'Unauthorized\', 401)',
    '  }',
    '}',
    '',
  ].join('\n');
}

describe('a secret in a chunk', () => {
  it('leaves out its lines and keeps the rest of the function searchable', async () => {
    const text = middleware();
    expect(findSecretLines(text, 'typescript').length, 'the detector flags the example').toBeGreaterThan(0);
    await withTmpWorkspace({ 'src/middleware/gate-keeper.ts': text, 'src/other.ts': 'export const unrelated = 1\n' }, async (ws) => {
      const w = await openWorkspace(ws.root);
      try {
        const s = await w.index();
        expect(s.skipped.secret_content).toBeGreaterThanOrEqual(1);
        const r = await w.search({ query: 'timingSafeCompare credentials username' });
        const hit = r.hits.find((h) => h.path === 'src/middleware/gate-keeper.ts');
        expect(hit, 'the function body is in the index').toBeDefined();
        for (const h of r.hits) expect(h.snippet).not.toContain(EXAMPLE_PASSWORD);
        const { value: f } = await w.read((db, codec) => readIndexedFile(db, { path: 'src/middleware/gate-keeper.ts' }, codec));
        const stored = f.text;
        expect(stored).toContain('timingSafeCompare');
        expect(stored).toContain('Basic authentication middleware.');
        expect(f.secret_chunks).toBeGreaterThanOrEqual(1);
        expect(f.hint).toMatch(/lines held a secret/);
        expect(stored).not.toContain(EXAMPLE_PASSWORD);
        expect((await w.search({ query: EXAMPLE_PASSWORD })).hits).toEqual([]);
      } finally {
        w.close();
      }
    });
  });
});

describe('carveSecrets', () => {
  const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1} text`);
  const draft = (startLine: number, endLine: number, name = 'Thing'): ChunkDraft => ({ startLine, endLine, kind: 'member', symbol: { kind: 'method', name }, header: 'class Owner' });

  it('keeps the parts before and after a secret, without its lines and margin', () => {
    const { kept, touched } = carveSecrets([draft(1, 20), draft(21, 30)], [{ startLine: 10, endLine: 10, kind: 'k', rule: 'r' }], lines);
    expect(touched).toBe(1);
    expect(kept.map((c) => [c.startLine, c.endLine])).toEqual([[1, 10 - SECRET_MARGIN_LINES - 1], [10 + SECRET_MARGIN_LINES + 1, 20], [21, 30]]);
    expect(kept[0]!.symbol?.name).toBe('Thing');
  });

  it('leaves out a part with fewer than two non-blank lines, and a chunk that is all secret', () => {
    const { kept, touched } = carveSecrets([draft(1, 4), draft(5, 7)], [{ startLine: 3, endLine: 3, kind: 'k', rule: 'r' }, { startLine: 6, endLine: 6, kind: 'k', rule: 'r' }], lines);
    expect(touched).toBe(2);
    expect(kept).toEqual([]);
  });

  it('drops a symbol or header line named from a withheld line', () => {
    const token = 'tk' + '_9f8e7d6c5b4a3928';
    const text = Array.from({ length: 12 }, (_, i) => (i === 5 ? `  - run: deploy --token ${token}` : `  step line ${i + 1}`));
    const c: ChunkDraft = { startLine: 1, endLine: 12, kind: 'member', symbol: { kind: 'step', name: `deploy --token ${token.slice(0, 10)}…` }, header: `jobs: publish\nrun: deploy --token ${token}` };
    const { kept } = carveSecrets([c], [{ startLine: 6, endLine: 6, kind: 'k', rule: 'r' }], text);
    expect(kept.length).toBe(2);
    for (const k of kept) {
      expect(k.symbol).toBeNull();
      expect(k.header).toBe('jobs: publish');
    }
  });
});

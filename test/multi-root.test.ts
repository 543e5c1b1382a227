// Many repositories in one search on the surfaces: `hci search <q> --root A --root B` (and a published
// index mixed in with --index, served by a real HTTP range server on 127.0.0.1; the Deno CLI too) and
// `hci mcp A B` through the MCP SDK client after listTools — real child processes over two temp
// workspaces whose own BM25 statistics would mis-order the hits (see federation.test.ts): the merged
// answer puts alpha's chunk first, hits carry `repo`, the text qualifies paths with it, the repos
// filter keeps one repository, and the MCP output schema declares and validates `repo`.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as path from 'node:path';
import { searchAnswer } from '../core/contract/index.ts';
import { ensureBuilt, runCli } from './helpers/hci-process.ts';
import { startStdio, type McpConn } from './helpers/mcp-harness.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { DENO_CLI, REPO, startDeno } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';
import { createTmpWorkspace, tmpDir, type TmpWorkspace } from './helpers/tmp-workspace.ts';
import { ALPHA, BETA } from './helpers/federation-repos.ts';
import * as fs from 'node:fs';

/** Deno's path ('' when it is missing, or its suites ran already in this CI run: HCI_DENO=ran). */
const deno = denoBinary();

describe('several repositories on the command line and over MCP', () => {
  let parent: string;
  let alpha: TmpWorkspace, beta: TmpWorkspace;
  let mcp: McpConn | undefined;
  let server: RangeServer | undefined;
  let published: string;

  beforeAll(async () => {
    ensureBuilt();
    // The folders' names are the repositories' names.
    parent = tmpDir('hci-multi-');
    alpha = await createTmpWorkspace(ALPHA, 'hci-multi-a-');
    beta = await createTmpWorkspace(BETA, 'hci-multi-b-');
    const a = path.join(parent, 'alpha');
    const b = path.join(parent, 'beta');
    fs.renameSync(alpha.root, a);
    fs.renameSync(beta.root, b);
    alpha = { ...alpha, root: a, cleanup: async () => fs.rmSync(a, { recursive: true, force: true }) };
    beta = { ...beta, root: b, cleanup: async () => fs.rmSync(b, { recursive: true, force: true }) };
    for (const root of [a, b]) expect((await runCli(['index', root, '--quiet'])).code).toBe(0);
    published = path.join(parent, 'site');
    fs.mkdirSync(published);
    expect((await runCli(['pack', '--root', b, '--out', path.join(published, 'beta.sqlite')])).code).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await mcp?.close();
    await server?.close();
    fs.rmSync(parent, { recursive: true, force: true });
  });

  it('hci search --root A --root B: one ranking, hits with their repository, paths qualified in the text', async () => {
    const json = await runCli(['search', 'gizmo', '--root', alpha.root, '--root', beta.root, '--json']);
    expect(json.code).toBe(0);
    const r = searchAnswer.parse(JSON.parse(json.stdout));
    expect(r.hits.map((h) => [h.repo, h.path])).toEqual([['alpha', 'docs/notes.md'], ['beta', 'docs/notes.md']]);
    expect(r.hits[0].hit_id.startsWith('alpha/')).toBe(true);
    expect(r.repos?.map((x) => x.repo)).toEqual(['alpha', 'beta']);
    const text = await runCli(['search', 'gizmo', '--root', alpha.root, '--root', beta.root]);
    expect(text.code).toBe(0);
    const lines = text.stdout.split('\n').filter((l) => /docs\/notes\.md:\d+-\d+/.test(l));
    expect(lines.map((l) => /(\S+\/docs\/notes\.md):/.exec(l)?.[1])).toEqual(['alpha/docs/notes.md', 'beta/docs/notes.md']);
    expect(text.stdout).toMatch(/alpha: index gen \d+, 2 files.*; beta: index gen \d+, 21 files/);
  }, 60_000);

  it('--repo keeps one repository; an unknown name is a usage error naming the repositories', async () => {
    const only = await runCli(['search', 'gizmo', '--root', alpha.root, '--root', beta.root, '--repo', 'beta', '--json']);
    expect(only.code).toBe(0);
    expect(searchAnswer.parse(JSON.parse(only.stdout)).hits.map((h) => h.repo)).toEqual(['beta']);
    const bad = await runCli(['search', 'gizmo', '--root', alpha.root, '--root', beta.root, '--repo', 'gamma']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('no repository named "gamma"');
    expect(bad.stderr).toContain('alpha, beta');
  }, 60_000);

  it('mixes a workspace folder with a published index (--index, HTTP ranges)', async () => {
    server = await startRangeServer(published);
    const r = await runCli(['search', 'gizmo', '--root', alpha.root, '--index', server.url('beta.sqlite'), '--json']);
    expect(r.code).toBe(0);
    const a = searchAnswer.parse(JSON.parse(r.stdout));
    expect(a.hits.map((h) => [h.repo, h.path])).toEqual([['alpha', 'docs/notes.md'], ['beta', 'docs/notes.md']]);
    expect(a.repos?.[1].index?.read_only).toBe(true);
    expect(server.stats.ranges).toBeGreaterThan(0);
  }, 60_000);

  it.skipIf(!deno)(titled('the Deno command line searches both as one, with the same ranking', { Deno: deno }), async () => {
    const roots = [alpha.root, beta.root];
    const flags = ['--no-prompt', `--allow-read=${parent},${path.join(REPO, 'node_modules')}`, `--allow-write=${roots.map((r) => path.join(r, '.hci')).join(',')}`, '--allow-sys=hostname'];
    const r = await startDeno(deno, flags, DENO_CLI, ['search', 'gizmo', '--root', alpha.root, '--root', beta.root, '--json']).exited;
    expect(r.code, r.stderr).toBe(0);
    expect(searchAnswer.parse(r.json).hits.map((h) => [h.repo, h.path])).toEqual([['alpha', 'docs/notes.md'], ['beta', 'docs/notes.md']]);
  }, 90_000);

  it('hci mcp A B: the search tool merges both, its output schema declares repo and the client validates it', async () => {
    mcp = await startStdio(alpha.root, [beta.root, '--watch', 'off']);
    const { tools } = await mcp.client.listTools();
    const search = tools.find((t) => t.name === 'search')!;
    const hitProps = (search.outputSchema as any).properties.hits.items.properties;
    expect(hitProps.repo.type).toBe('string');
    expect((search.inputSchema as any).properties.repos.type).toBe('array');
    // The SDK client checks structuredContent against the listed output schema on every call.
    const r = await mcp.call('search', { query: 'gizmo' });
    expect(r.isError).toBe(false);
    const a = searchAnswer.parse(r.structured);
    expect(a.hits.map((h) => [h.repo, h.path])).toEqual([['alpha', 'docs/notes.md'], ['beta', 'docs/notes.md']]);
    expect(r.text).toContain('1. alpha/docs/notes.md:');
    expect(r.text).toContain('2. beta/docs/notes.md:');
    const only = await mcp.call('search', { query: 'gizmo', repos: 'alpha' });
    expect(searchAnswer.parse(only.structured).hits.map((h) => h.repo)).toEqual(['alpha']);
    // The hit id names its repository: explain reaches the right index.
    const ex = await mcp.call('explain_result', { hit_id: a.hits[1].hit_id });
    expect(ex.isError).toBe(false);
    expect(ex.structured.explanation.text).toContain('Wheels spin');
  }, 90_000);
});

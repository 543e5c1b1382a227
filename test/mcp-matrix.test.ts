// Every MCP tool, driven as a host drives it: the SDK's own Client, after `listTools` (from then on the
// Client checks every structuredContent against the outputSchema it cached, and throws -32602 on a
// mismatch), against real server processes — Node and Deno, over stdio and Streamable HTTP. The
// calls are chosen so the answers cover every search `status` (ok, empty, no_index, indexing, error)
// and every `match` (all, all_then_any, any, none); each answer is also checked against the contract
// schema it claims (core/contract/) with no undeclared field, and `isError` must agree with `status`.
// The intercom tools run the seed's acceptance criteria on a conversation log in the workspace (the
// Deno server also gets write access to the log's folder, which relate needs).
// @lane mcp
import { describe, it, expect, afterAll } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { z } from 'zod';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  explainResponse, hostStatus, intercomFindAnswer, intercomRelateAnswer, outlineResponse, reindexAnswer, resolveResponse, searchAnswer, similarAnswer, watchAnswer, treeResponse,
} from '../core/contract/index.ts';
import { copySample, ensureBuilt, firstMethod, freePort, HCI_BIN, REPO, waitFor } from './helpers/mcp-harness.ts';
import { denoFlags } from './helpers/deno.ts';
import { denoBinary } from './helpers/runtimes.ts';

const DENO_ENTRY = path.join(REPO, 'runtimes/deno/mcp.ts');
const WAIT_ENV = 'HCI_MCP_FIRST_INDEX_WAIT_MS';

/** The contract schema each tool's structuredContent must fit. */
const CONTRACT: Record<string, z.ZodType> = {
  search: searchAnswer,
  similar: similarAnswer,
  explain_result: explainResponse,
  outline: outlineResponse,
  resolve: resolveResponse,
  status: hostStatus,
  reindex: reindexAnswer,
  watch: watchAnswer,
  tree: treeResponse,
  intercom_messages_for_code: intercomFindAnswer,
  intercom_message_relate: intercomRelateAnswer,
};

/** Where the conversation log lives in the workspace (the Deno server may write there: relate). */
const LOG_DIR = '.sessions';

type Runtime = 'node' | 'deno';
type Transport = 'stdio' | 'http';

interface Server {
  client: Client;
  close(): Promise<void>;
}

/** The command that serves `root`: `node bin/hci.js mcp` or `deno run <narrow permissions> runtimes/deno/mcp.ts`. */
function serverCommand(runtime: Runtime, root: string, extra: string[], port?: number): { command: string; args: string[] } {
  if (runtime === 'node') return { command: process.execPath, args: [HCI_BIN, 'mcp', root, '--watch', 'off', ...extra] };
  const net = port === undefined ? [] : [`--allow-net=127.0.0.1:${port}`];
  const write = `--allow-write=${path.join(root, '.hci')},${path.join(root, LOG_DIR)}`;
  return { command: denoBinary()!, args: ['run', ...denoFlags(root, [`--allow-env=${WAIT_ENV}`, write, ...net]), DENO_ENTRY, root, ...extra] };
}

async function start(runtime: Runtime, transport: Transport, root: string): Promise<Server> {
  // A first search answers `indexing` at once instead of waiting for the first build.
  const env = { ...(process.env as Record<string, string>), NO_COLOR: '1', [WAIT_ENV]: '0' };
  const client = new Client({ name: `hci-matrix-${runtime}-${transport}`, version: '1.0.0' });
  if (transport === 'stdio') {
    const { command, args } = serverCommand(runtime, root, []);
    const t = new StdioClientTransport({ command, args, env, cwd: REPO, stderr: 'pipe' });
    await client.connect(t);
    return { client, close: () => client.close() };
  }
  const port = await freePort();
  const { command, args } = serverCommand(runtime, root, ['--http', '--port', String(port)], port);
  const child: ChildProcess = spawn(command, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((r) => child.on('close', (code) => r(code)));
  const { value: url } = await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`the ${runtime} server exited (${child.exitCode}): ${err}`);
    return /at (http:\/\/\S+\/mcp)/.exec(err)?.[1];
  }, 20_000, `the ${runtime} HTTP server's URL`);
  const t = new StreamableHTTPClientTransport(new URL(url));
  await client.connect(t);
  return {
    client,
    async close() {
      await t.terminateSession().catch(() => {});
      await client.close();
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const RUNTIMES: Runtime[] = denoBinary() ? ['node', 'deno'] : ['node'];
const COMBOS = RUNTIMES.flatMap((r) => (['stdio', 'http'] as Transport[]).map((t) => [r, t] as const));

describe.each(COMBOS)('every MCP tool validates: %s over %s', (runtime, transport) => {
  const ws = copySample(`hci-matrix-${runtime}-${transport}-`);
  let server: Server | undefined;
  const statuses = new Map<string, Set<string>>();
  const matches = new Set<string>();

  afterAll(async () => {
    await server?.close().catch(() => {});
    ws.cleanup();
  });

  /** One tools/call as a host makes it; the Client has validated structuredContent when this returns. */
  async function call(name: string, args: Record<string, unknown> = {}): Promise<Record<string, any>> { // eslint-disable-line @typescript-eslint/no-explicit-any
    const r = await server!.client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    const s = r.structuredContent as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    const text = (r.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
    expect(s, `${name} ${JSON.stringify(args)} has no structuredContent: ${text}`).toBeTypeOf('object');
    const checked = CONTRACT[name].safeParse(s);
    expect(checked.success, `${name} ${JSON.stringify(args)} does not fit the contract: ${checked.error?.message}`).toBe(true);
    // Parsing drops undeclared fields: nothing may be lost (the wire schema is open, the contract is not).
    expect(checked.data, `${name} ${JSON.stringify(args)}: a field the contract does not declare`).toEqual(s);
    expect(r.isError === true, `${name}: isError must say whether status is error (${s.status})`).toBe(s.status === 'error');
    expect(text.length, `${name}: a text rendering`).toBeGreaterThan(0);
    if (!statuses.has(name)) statuses.set(name, new Set());
    statuses.get(name)!.add(s.status);
    if (name === 'search') matches.add(s.match);
    return s;
  }

  it('lists the tools, then answers every tool on every status and match', async () => {
    ensureBuilt();
    server = await start(runtime, transport, ws.root);
    const { tools } = await server.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(CONTRACT).sort());
    for (const t of tools) expect(t.outputSchema?.type, t.name).toBe('object');
    // Names every host takes: the spec allows dots, several hosts' model APIs do not.
    for (const t of tools) expect(t.name).toMatch(/^[A-Za-z0-9_-]{1,64}$/);

    // No index yet: status says so; the first search starts building it and answers `indexing`.
    expect((await call('status')).status).toBe('no_index');
    const first = await call('search', { query: 'CatalogService' });
    expect(first.status).toBe('indexing');
    expect(first.task.task_id).toBeTruthy();
    const built = await call('status', { task_id: first.task.task_id, wait_ms: 45_000 });
    expect(built.task.state, JSON.stringify(built.task)).toBe('done');
    expect(built.status).toBe('ok');

    // Every match value, and empty.
    const all = await call('search', { query: 'CatalogService' });
    expect([all.status, all.match]).toEqual(['ok', 'all']);
    const question = await call('search', { query: 'where is the order discount calculated' });
    expect([question.status, question.match]).toEqual(['ok', 'all_then_any']);
    const some = await call('search', { query: 'CatalogService zzzqqqnothing' });
    expect([some.status, some.match]).toEqual(['ok', 'any']);
    const none = await call('search', { query: 'ZzyzxNotInThisCodeBase' });
    expect([none.status, none.match]).toEqual(['empty', 'none']);
    const paged = await call('search', { query: 'catalog', limit: 2, max_tokens: 400 });
    expect(paged.next_cursor).toBeTruthy();
    await call('search', { query: 'catalog', limit: 2, cursor: paged.next_cursor });

    // Errors: found by the core, by the path guard, and by the input schema.
    expect((await call('search', { query: 'catalog', mode: 'semantic' })).error.code).toBe('mode_unavailable');
    expect((await call('search', { query: 'catalog', paths: ['../elsewhere'] })).error.code).toBe('path_outside_workspace');
    expect((await call('search', { query: 42, limit: 'many' })).error.code).toBe('invalid_arguments');
    expect((await call('search', { query: 'catalog', cursor: 'not-a-cursor' })).error.code).toBe('invalid_cursor');
    expect((await call('similar', { snippet: 'decimal Total' })).error.code).toBe('mode_unavailable');
    expect((await call('similar', { hit_id: 'x', snippet: 'y' })).error.code).toBe('invalid_request');

    // explain_result
    const explained = await call('explain_result', { hit_id: all.hits[0].hit_id, max_lines: 5 });
    expect(explained.status).toBe('ok');
    expect(explained.explanation.match).toBe('all');
    expect((await call('explain_result', { hit_id: question.hits.at(-1).hit_id })).explanation.match).toBe('all_then_any');
    expect((await call('explain_result', { hit_id: 'not-a-hit' })).error.code).toBe('invalid_hit_id');
    expect((await call('explain_result', {})).error.code).toBe('invalid_arguments');

    // outline
    const file = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';
    const outline = await call('outline', { path: file });
    expect(outline.status).toBe('ok');
    expect(outline.symbols.length).toBeGreaterThan(0);
    expect((await call('outline', { path: '../../etc/passwd' })).error.code).toBe('path_outside_workspace');
    expect((await call('outline', { path: 'src/NoSuchFile.cs' })).error.code).toBe('not_indexed');

    // tree: a folder's subfolders and files, a folder with nothing indexed, one outside, bad arguments.
    const top = await call('tree');
    expect(top.folders.map((f: { path: string }) => f.path)).toContain('src/');
    expect((await call('tree', { folder: 'src/Contoso.Shop.Application/Catalog/' })).files.map((f: { path: string }) => f.path)).toContain(file);
    expect((await call('tree', { folder: 'no/such/folder' })).status).toBe('empty');
    expect((await call('tree', { folder: '../elsewhere' })).error.code).toBe('path_outside_workspace');
    expect((await call('tree', { limit: 0 })).error.code).toBe('invalid_arguments');

    // resolve: a member key to its location, a line to its member, a key that is gone, bad arguments.
    const member = firstMethod(outline.symbols);
    expect(member, 'a member with a member key in the outline').toBeTruthy();
    const byKey = await call('resolve', { member_key: member!.member_key });
    expect(byKey.status).toBe('ok');
    expect(byKey.locations[0]).toMatchObject({ path: file, member_key: member!.member_key, start_line: member!.start_line });
    const byLine = await call('resolve', { path: path.join(ws.root, file), line: member!.start_line });
    expect(byLine.status).toBe('ok');
    expect(byLine.locations[0].path).toBe(file);
    expect((await call('resolve', { member_key: 'No.Such.Type.Member()' })).status).toBe('empty');
    expect((await call('resolve', { path: file })).error.code).toBe('invalid_arguments');
    expect((await call('resolve', { path: '../outside.cs', line: 3 })).error.code).toBe('path_outside_workspace');

    // intercom: the seed's acceptance criteria on a log in the workspace, then the refusals.
    fs.mkdirSync(path.join(ws.root, LOG_DIR), { recursive: true });
    const log = `${LOG_DIR}/t.events.ndjson`;
    const logFile = path.join(ws.root, log);
    const msg = (id: string, attachments: unknown[] = []) =>
      JSON.stringify({ type: 'message_added', schema_version: 1, thread_id: 't1', message_id: id, role: 'user', text: `about ${id}`, attachments });
    const attached = { file, line_start: member!.start_line, line_end: member!.end_line, member_key: null };
    fs.writeFileSync(logFile, [msg('m1'), msg('m2', [attached]), msg('m3'), msg('m4'), msg('m5')].join('\n') + '\n');
    const lines = `${file}:L${member!.start_line}-${member!.end_line}`;
    const found = await call('intercom_messages_for_code', { log, thread_id: 't1', code_ref: lines });
    expect(found.status).toBe('ok');
    expect(found.matches.map((m: { ordinal: number }) => m.ordinal)).toContain(2);
    expect(found.matches[0]).toMatchObject({ ordinal: 2, message_id: 'm2', match_kind: 'inferred', stale: false, member_key: member!.member_key });
    expect((await call('intercom_messages_for_code', { log, thread_id: 't1' })).error.code).toBe('empty_selection');
    const before = fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    const related = await call('intercom_message_relate', { log, thread_id: 't1', range: '3:5', code_ref: `[M:${member!.member_key}]` });
    expect(related).toMatchObject({ status: 'ok', ordinals: [3, 4, 5], code_ref: { file, member_key: member!.member_key } });
    const after = fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after).toHaveLength(before.length + 1);
    expect(JSON.parse(after.at(-1)!)).toMatchObject({ type: 'message_range_related', start_ordinal: 3, end_ordinal: 5, source: 'mcp' });
    const again = await call('intercom_messages_for_code', { log, thread_id: 't1', code_ref: lines });
    expect(again.matches.map((m: { ordinal: number }) => m.ordinal).sort()).toEqual([2, 3, 4, 5]);
    expect((await call('intercom_messages_for_code', { log, thread_id: 't1', code_ref: `${file}:L1` })).status).toBe('empty');
    expect((await call('intercom_messages_for_code', { log: '../elsewhere.ndjson', thread_id: 't1', code_ref: lines })).error.code).toBe('path_outside_workspace');
    expect((await call('intercom_messages_for_code', { log: path.join(path.dirname(ws.root), 'x.ndjson'), thread_id: 't1', code_ref: lines })).error.code).toBe('path_outside_workspace');
    expect((await call('intercom_message_relate', { log, thread_id: 't1', range: '1', code_ref: '../outside.cs:L1' })).error.code).toBe('path_outside_workspace');
    expect((await call('intercom_message_relate', { log, thread_id: 't1', range: '3,5', code_ref: lines })).error.code).toBe('range_not_contiguous');
    expect((await call('intercom_message_relate', { log, thread_id: 't1', range: '2', code_ref: lines, source: 'cli' })).error.code).toBe('invalid_arguments');
    expect((await call('intercom_messages_for_code', { log, thread_id: 'nope', code_ref: lines })).error.code).toBe('unknown_thread');
    expect(fs.readFileSync(logFile, 'utf8').split('\n').filter(Boolean)).toEqual(after);

    // reindex and status
    const run = await call('reindex', { wait_ms: 45_000 });
    expect([run.status, run.task.state]).toEqual(['ok', 'done']);
    expect((await call('reindex', { full: true, paths: [file] })).error.code).toBe('invalid_arguments');
    expect((await call('reindex', { cancel: true })).error.code).toBe('no_task');
    expect((await call('status', { check_pending: true })).pending).toEqual({ added: 0, modified: 0, deleted: 0 });
    expect((await call('status', { task_id: 'no-such-task' })).error.code).toBe('unknown_task');

    // watch: Node watches; Deno has no watcher and says so.
    const on = await call('watch', { enabled: true });
    if (runtime === 'node') expect(on.status).toBe('ok');
    else expect(on.error.code).toBe('not_available');
    expect((await call('watch', { enabled: false })).status).toBe('ok');

    expect([...statuses.get('search')!].sort()).toEqual(['empty', 'error', 'indexing', 'ok']);
    expect([...statuses.get('status')!].sort()).toEqual(['error', 'no_index', 'ok']);
    expect([...statuses.get('intercom_messages_for_code')!].sort()).toEqual(['empty', 'error', 'ok']);
    expect([...statuses.get('intercom_message_relate')!].sort()).toEqual(['error', 'ok']);
    const seen = new Set([...statuses.values()].flatMap((s) => [...s]));
    expect([...seen].filter((s) => ['ok', 'empty', 'no_index', 'indexing', 'error'].includes(s)).sort()).toEqual(['empty', 'error', 'indexing', 'no_index', 'ok']);
    expect([...matches].sort()).toEqual(['all', 'all_then_any', 'any', 'none']);
    expect([...statuses.keys()].sort()).toEqual(Object.keys(CONTRACT).sort());
  }, 180_000);

  it('with semantic search on: hybrid and semantic searches, explain with the fusion, and similar from a hit, a line and a snippet', async () => {
    await server?.close();
    fs.writeFileSync(path.join(ws.root, '.hci', 'settings.toml'), '[semantic]\nenabled = true\ndims = 64\n');
    server = await start(runtime, transport, ws.root); // settings are read at start
    const run = await call('reindex', { wait_ms: 45_000 });
    expect([run.status, run.task.state]).toEqual(['ok', 'done']);
    expect((await call('status')).vectors).toMatchObject({ state: 'ready', provider: 'learned', coverage: 1 });
    const hy = await call('search', { query: 'where is the order discount calculated', mode: 'hybrid' });
    expect([hy.status, hy.mode]).toEqual(['ok', 'hybrid']);
    expect(hy.hits.every((h: { fts_norm?: number; vec_norm?: number }) => typeof h.fts_norm === 'number' && typeof h.vec_norm === 'number')).toBe(true);
    expect(new Set(hy.hits.map((h: { hit_kind: string }) => h.hit_kind)).size).toBeGreaterThan(1);
    const x = await call('explain_result', { hit_id: hy.hits[0].hit_id });
    expect(x.explanation.fusion).toMatchObject({ mode: 'hybrid', weights: { keyword: 0.65, vector: 0.35 }, guarded: true });
    const sem = await call('search', { query: 'pricing rules for a basket', mode: 'semantic' });
    expect([sem.status, sem.match]).toEqual(['ok', 'similar']);
    expect(sem.hits.every((h: { hit_kind: string; fts_score?: number }) => h.hit_kind === 'text_vector' && h.fts_score === undefined)).toBe(true);
    const fromHit = await call('similar', { hit_id: sem.hits[0].hit_id, limit: 5 });
    expect(fromHit).toMatchObject({ status: 'ok', match: 'similar', source: { kind: 'hit', path: sem.hits[0].path } });
    expect(fromHit.hits.some((h: { hit_id: string }) => h.hit_id.split('.')[0] === sem.hits[0].hit_id.split('.')[0])).toBe(false);
    const file = 'src/Contoso.Shop.Application/Pricing/PricingEngine.cs';
    const fromLine = await call('similar', { path: file, line: 120, exts: 'cs' });
    expect(fromLine).toMatchObject({ status: 'ok', source: { kind: 'line', path: file } });
    expect(fromLine.hits.every((h: { path: string }) => h.path.endsWith('.cs'))).toBe(true);
    const fromSnippet = await call('similar', { snippet: 'public Money CalculateShipping(Money discountedGoods, string shippingCountry)' });
    expect(fromSnippet).toMatchObject({ status: 'ok', source: { kind: 'snippet' } });
    expect((await call('similar', { path: '../outside.cs', line: 1 })).error.code).toBe('path_outside_workspace');
    expect((await call('similar', { path: file, line: 99999 })).error.code).toBe('not_indexed');
  }, 180_000);
});

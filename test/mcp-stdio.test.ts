// The MCP server over stdio as a real child process (`node bin/hci.js mcp <root>`), driven by the MCP
// SDK's own client: the tool list and schemas, search on the sample workspace, explain, outline,
// path refusal, structured answers for bad arguments, background reindex with progress and cancel,
// the first search on a workspace without an index, and the token budget of a broad search.
// @lane mcp
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copySample, ensureBuilt, generateWorkspace, startStdio, waitFor, type McpConn } from './helpers/mcp-harness.ts';
import { HCI_VERSION } from '../core/version.ts';

const TOOLS = ['search', 'similar', 'explain_result', 'outline', 'resolve', 'tree', 'status', 'reindex', 'watch', 'intercom_messages_for_code', 'intercom_message_relate'];

describe('hci mcp over stdio: the sample workspace', () => {
  let ws: { root: string; cleanup(): void };
  let mcp: McpConn;

  beforeAll(async () => {
    ensureBuilt();
    ws = copySample();
    mcp = await startStdio(ws.root, ['--watch', 'off']);
  });
  afterAll(async () => {
    await mcp?.close();
    ws?.cleanup();
  });

  it('lists the tools with descriptions, input and output schemas', async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const t of tools) {
      expect(t.description!.length, t.name).toBeGreaterThan(80);
      expect(t.inputSchema.type).toBe('object');
      expect(t.outputSchema?.type, t.name).toBe('object');
      expect(Object.keys(t.outputSchema!.properties ?? {}), t.name).toContain('status');
      expect(Object.keys(t.outputSchema!.properties ?? {}), t.name).toContain('index');
    }
    const search = tools.find((t) => t.name === 'search')!;
    expect(search.inputSchema.required).toEqual(['query']);
    expect(Object.keys(search.inputSchema.properties!)).toEqual(expect.arrayContaining(['query', 'limit', 'paths', 'exts', 'exclude_paths', 'mode', 'max_tokens', 'cursor']));
    expect(search.inputSchema.properties!.limit).toMatchObject({ type: 'integer', minimum: 1, maximum: 50 });
    // Lists are arrays, never `string | array`: a union defeats generic clients' form builders.
    for (const k of ['paths', 'exts', 'exclude_paths']) {
      expect(search.inputSchema.properties![k], k).toMatchObject({ type: 'array', items: { type: 'string' } });
    }
    expect(JSON.stringify(search.inputSchema)).not.toMatch(/anyOf|oneOf/);
    // Written for a model: when to search, what hit_kind means, compiler follow-up, status not silence.
    expect(search.description).toMatch(/BEFORE/);
    expect(search.description).toMatch(/text_fts/);
    expect(search.description).toMatch(/compiler/);
    expect(search.description).toMatch(/NOT proof of absence/);
    expect(search.annotations?.readOnlyHint).toBe(true);
    expect(tools.find((t) => t.name === 'reindex')!.annotations?.readOnlyHint).toBe(false);
    expect(mcp.client.getInstructions()).toMatch(/call `search` first/);
    expect(mcp.client.getServerVersion()).toMatchObject({ name: 'hci', version: HCI_VERSION });
  });

  it('searches: contract hits, compact text, freshness, never a bare empty list', async () => {
    // The first search builds the index (small workspace: within the first-build wait, or shortly after).
    const { value: r } = await waitFor(async () => {
      const a = await mcp.call('search', { query: 'GetCatalogItemsAsync' });
      return a.structured.status === 'ok' ? a : null;
    }, 20_000, 'a first search answer with hits');
    const s = r.structured;
    expect(s.contract_version).toBe(2);
    expect(s.hits.length).toBeGreaterThan(0);
    expect(s.hits.length).toBeLessThanOrEqual(8);
    const h = s.hits[0];
    expect(h).toMatchObject({ hit_kind: 'text_fts', lang: 'csharp' });
    expect(h.path).toMatch(/^src\/.*\.cs$/);
    expect(h.start_line).toBeGreaterThanOrEqual(1);
    expect(h.note).toMatch(/compiler/);
    expect(s.index).toMatchObject({ build_state: 'complete', files: 79 });
    expect(s.index.generation).toBeGreaterThan(0);
    expect(typeof s.index.indexed_at).toBe('string');
    expect(s.skipped).toBeTypeOf('object');
    // About one line per hit plus its snippet, then one summary line.
    const first = r.text.split('\n')[0];
    const sym = h.symbol ? ` ${h.symbol.kind} ${h.symbol.name}` : '';
    expect(first).toBe(`1. ${h.path}:${h.start_line}-${h.end_line} csharp${sym} ${h.score} [${h.hit_id}]`);
    expect(r.text).toMatch(/hits? \(ok, match all\), \d+ ms; index gen \d+, 79 files, built/);
    expect(r.text.length).toBeLessThan(JSON.stringify(s).length);

    const none = await mcp.call('search', { query: 'ZzyzxNotInThisCodeBase' });
    expect(none.isError).toBe(false);
    expect(none.structured.status).toBe('empty');
    expect(none.structured.hint).toMatch(/not proof of absence/);
    expect(none.text).toMatch(/0 hits \(empty\)/);

    const filtered = await mcp.call('search', { query: 'catalog', paths: 'src/Contoso.Shop.Web/', exts: ['razor'] });
    expect(filtered.structured.hits.length).toBeGreaterThan(0);
    for (const x of filtered.structured.hits) expect(x.path).toMatch(/^src\/Contoso\.Shop\.Web\/.*\.razor$/);
    // An absolute path inside the root is accepted as a filter.
    const abs = await mcp.call('search', { query: 'catalog', paths: [path.join(ws.root, 'src', 'Contoso.Shop.Web') + '/'] });
    expect(abs.structured.hits.map((x: { path: string }) => x.path)).toEqual(filtered.structured.hits.length ? expect.arrayContaining([expect.stringMatching(/^src\/Contoso\.Shop\.Web\//)]) : []);

    const page1 = await mcp.call('search', { query: 'catalog', limit: 3 });
    expect(page1.structured.next_cursor).toBeTruthy();
    const page2 = await mcp.call('search', { query: 'catalog', limit: 3, cursor: page1.structured.next_cursor });
    expect(page2.structured.hits[0].rank).toBe(4);
  });

  it('takes paths, exts and exclude_paths as arrays, and a lone string as a one-item list', async () => {
    const arrays = await mcp.call('search', { query: 'CatalogService', paths: ['src/'], exts: ['cs'], exclude_paths: ['src/Contoso.Shop.Web/'], limit: 50 });
    expect(arrays.structured.status, arrays.text).toBe('ok');
    expect(arrays.structured.hits.every((h: { path: string }) => h.path.startsWith('src/') && !h.path.startsWith('src/Contoso.Shop.Web/') && h.path.endsWith('.cs'))).toBe(true);
    const lone = await mcp.call('search', { query: 'CatalogService', paths: 'src/', exts: 'cs', exclude_paths: 'src/Contoso.Shop.Web/', limit: 50 });
    expect(lone.structured.hits).toEqual(arrays.structured.hits);
    const bad = await mcp.call('search', { query: 'x', paths: [1, 2] });
    expect(bad.structured.error.code).toBe('invalid_arguments');
  });

  it('explains a hit: text, matched terms, score factors, paired files', async () => {
    const s = await mcp.call('search', { query: 'ProductDetails', exts: ['razor'] });
    const hit = s.structured.hits.find((h: { path: string }) => h.path.endsWith('ProductDetails.razor'));
    expect(hit, s.text).toBeTruthy();
    const e = await mcp.call('explain_result', { hit_id: hit.hit_id, max_lines: 5 });
    expect(e.structured.status).toBe('ok');
    const x = e.structured.explanation;
    expect(x.path).toBe(hit.path);
    expect(x.text.split('\n').length).toBeLessThanOrEqual(5);
    expect(x.matched_terms.length).toBeGreaterThan(0);
    expect(x.paired_files).toContainEqual({ path: `${hit.path}.cs`, relation: 'code_behind' });
    expect(e.text).toMatch(/^src\/.*ProductDetails\.razor:\d+-\d+ razor/);
    expect(e.text).toMatch(/paired files: .*ProductDetails\.razor\.cs \(code_behind\)/);
    expect(e.structured.index.generation).toBeGreaterThan(0);

    const bad = await mcp.call('explain_result', { hit_id: 'not-a-hit' });
    expect(bad.isError).toBe(true);
    expect(bad.structured).toMatchObject({ status: 'error', error: { code: 'invalid_hit_id' } });
    expect(bad.structured.hint).toBeTruthy();
  });

  it('outlines a file, and refuses paths outside the workspace', async () => {
    const rel = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';
    for (const p of [rel, path.join(ws.root, rel)]) {
      const o = await mcp.call('outline', { path: p });
      expect(o.structured.status, o.text).toBe('ok');
      expect(o.isError).toBe(false);
      expect(o.structured.path).toBe(rel);
      const names = (ns: Array<{ name: string; children?: unknown[] }>): string[] => ns.flatMap((n) => [n.name, ...names((n.children ?? []) as typeof ns)]);
      expect(names(o.structured.symbols)).toContain('CatalogService');
      expect(o.text.startsWith(rel)).toBe(true);
    }
    for (const p of ['../outside.cs', '/etc/passwd', 'src/../../x.cs', `file://${path.dirname(ws.root)}/x.cs`]) {
      const o = await mcp.call('outline', { path: p });
      expect(o.isError, p).toBe(true);
      expect(o.structured, p).toMatchObject({ status: 'error', symbols: [], error: { code: 'path_outside_workspace' } });
      expect(o.structured.hint).toMatch(/relative to the workspace root/);
    }
    const s = await mcp.call('search', { query: 'catalog', paths: ['../elsewhere/'] });
    expect(s.structured).toMatchObject({ status: 'error', hits: [], error: { code: 'path_outside_workspace' } });
    const ex = await mcp.call('search', { query: 'catalog', exclude_paths: '/etc' });
    expect(ex.structured.error.code).toBe('path_outside_workspace');
  });

  it('answers bad arguments with a structured error, never a protocol error', async () => {
    const cases: Array<[string, Record<string, unknown>, RegExp]> = [
      ['search', {}, /query/],
      ['search', { query: 'x', limit: 0 }, /limit/],
      ['search', { query: 'x', limit: '5' }, /limit/],
      ['search', { query: 'x', limit: 51 }, /limit/],
      ['search', { query: 'x', max_tokens: 10 }, /max_tokens/],
      ['search', { query: 'x', mode: 'fuzzy' }, /mode/],
      ['search', { query: 'x', k: 5 }, /unknown argument: k/],
      ['explain_result', { hit_id: 42 }, /hit_id/],
      ['outline', {}, /path/],
      ['status', { wait_ms: -1 }, /wait_ms/],
      ['reindex', { full: 'yes' }, /full/],
      ['watch', {}, /enabled/],
    ];
    for (const [tool, args, re] of cases) {
      const r = await mcp.call(tool, args);
      const label = `${tool} ${JSON.stringify(args)}`;
      expect(r.isError, label).toBe(true);
      expect(r.structured.status, label).toBe('error');
      expect(r.structured.error.code, label).toBe('invalid_arguments');
      expect(r.structured.error.message, label).toMatch(re);
      expect(r.structured.error.issues.length, label).toBeGreaterThan(0);
      expect(r.structured.hint, label).toMatch(/input schema/);
      expect(r.text, label).toMatch(/^error invalid_arguments: /);
    }
    // Semantic mode is valid input but not available: a structured answer with a hint.
    const sem = await mcp.call('search', { query: 'catalog', mode: 'semantic' });
    expect(sem.structured).toMatchObject({ status: 'error', error: { code: 'mode_unavailable' } });
    // Unknown task ids and a cancel with nothing to cancel are answers too.
    expect((await mcp.call('status', { task_id: 'nope' })).structured.error.code).toBe('unknown_task');
    expect((await mcp.call('reindex', { cancel: true })).structured.error.code).toBe('no_task');
  });

  it('reindexes in the background: a task id at once, progress, status reaches done', async () => {
    const t0 = Date.now();
    const r = await mcp.call('reindex', { full: true });
    const answeredIn = Date.now() - t0;
    expect(r.structured.status).toBe('ok');
    const id = r.structured.task.task_id;
    expect(id).toMatch(/^t\d+-/);
    expect(['queued', 'running', 'done']).toContain(r.structured.task.state);
    expect(answeredIn).toBeLessThan(20_000); // a hang, not a slow answer: the latency is a bench figure (bench/latency.ts)
    expect(r.text).toMatch(new RegExp(`task ${id} \\(full, by tool\\)`));

    const progress: number[] = [];
    const st = await mcp.call('status', { task_id: id, wait_ms: 30_000 }, { onprogress: (p) => progress.push(p.progress) });
    expect(st.structured.task).toMatchObject({ task_id: id, state: 'done', full: true });
    expect(st.structured.task.result.files_indexed).toBe(79);
    expect(progress.length).toBeGreaterThan(0);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThan(progress[i - 1]);
    expect(st.structured.tasks[0].task_id).toBe(id);
    expect(st.structured.watcher).toMatchObject({ state: 'off', pending: null });
    expect(st.text).toMatch(/done in \d+ ms: 79 indexed/);

    // wait_ms on reindex itself: an incremental run with nothing to do finishes at once.
    const inc = await mcp.call('reindex', { wait_ms: 30_000 });
    expect(inc.structured.task).toMatchObject({ state: 'done', full: false });
    expect(inc.structured.task.result.files_indexed).toBe(0);
  });

  it('reindexes only the paths given (relative or absolute), and refuses paths outside the workspace', async () => {
    const rel = 'docs/architecture.md';
    fs.appendFileSync(path.join(ws.root, rel), '\nTargetedMarkerKinkajou\n');
    const r = await mcp.call('reindex', { paths: [rel, path.join(ws.root, 'src/NoSuchFile.cs')], wait_ms: 30_000 });
    expect(r.structured.status).toBe('ok');
    expect(r.structured.task).toMatchObject({ state: 'done', full: false, trigger: 'tool', paths: [rel, 'src/NoSuchFile.cs'] });
    expect(r.structured.task.result).toMatchObject({ files_indexed: 1, files_unchanged: 0, files_removed: 0 });
    expect(r.text).toMatch(/\(incremental, 2 paths, by tool\)/);
    expect((await mcp.call('search', { query: 'TargetedMarkerKinkajou' })).structured.hits[0]?.path).toBe(rel);

    const out = await mcp.call('reindex', { paths: ['../outside.cs'] });
    expect(out.structured).toMatchObject({ status: 'error', task: null, error: { code: 'path_outside_workspace' } });
    const both = await mcp.call('reindex', { paths: [rel], full: true });
    expect(both.structured).toMatchObject({ status: 'error', error: { code: 'invalid_arguments' } });
  });

  it('turns the watcher on and off', async () => {
    const on = await mcp.call('watch', { enabled: true });
    expect(on.structured.status).toBe('ok');
    expect(['starting', 'on']).toContain(on.structured.watcher.state);
    expect(on.structured.watcher.mode).toBe('events');
    const st = await mcp.call('status', {});
    expect(st.structured.watcher.mode).toBe('events');
    expect(typeof st.structured.index.pending_changes).toBe('number');
    const off = await mcp.call('watch', { enabled: false });
    expect(off.structured.watcher).toMatchObject({ state: 'off', pending: null });
    expect(off.text).toMatch(/^watcher: off/);
  });

  it('kept every answer within its output schema and logged no failure on stderr', () => {
    expect(mcp.stderr()).not.toMatch(/does not match its output schema|threw|unhandled/);
  });
});

describe('hci mcp over stdio: the first build with the watcher on', () => {
  let ws: { root: string; cleanup(): void };
  let mcp: McpConn;
  beforeAll(async () => {
    ensureBuilt();
    ws = copySample('hci-mcp-first-');
    mcp = await startStdio(ws.root, [], { HCI_MCP_FIRST_INDEX_WAIT_MS: '60000' });
  });
  afterAll(async () => {
    await mcp?.close();
    ws?.cleanup();
  });

  it('reports no phantom pending change and runs no second pass after it', async () => {
    const r = await mcp.call('search', { query: 'CatalogService' });
    expect(r.structured.status, r.text).toBe('ok');
    expect(r.structured.index.pending_changes).toBe(0);
    expect(r.structured.hint ?? '').not.toMatch(/not indexed yet/);
    // Time for a catch-up run to show, had one been scheduled (the watcher debounces 300 ms).
    await new Promise((res) => setTimeout(res, 1500));
    const st = await mcp.call('status', {});
    expect(st.structured.watcher).toMatchObject({ state: 'on', pending: 0, runs: 0 });
    expect(st.structured.tasks.map((t: { trigger: string }) => t.trigger)).toEqual(['search']);
    expect(st.structured.index.pending_changes).toBe(0);
    // A real change still gets picked up.
    fs.appendFileSync(path.join(ws.root, 'src/Contoso.Shop.Application/Catalog/CatalogService.cs'), '\n// PhantomCheckMarker\n');
    const { value: hit } = await waitFor(async () => {
      const a = await mcp.call('search', { query: 'PhantomCheckMarker' });
      return a.structured.hits.length ? a : null;
    }, 20_000, 'the watcher re-indexing a change');
    expect(hit.structured.hits[0].path).toMatch(/CatalogService\.cs$/);
  });
});

describe('hci mcp over stdio: a larger workspace without an index', () => {
  let ws: { root: string; cleanup(): void };
  let mcp: McpConn;

  beforeAll(async () => {
    ensureBuilt();
    ws = generateWorkspace(200);
    mcp = await startStdio(ws.root, ['--watch', 'off'], { HCI_MCP_FIRST_INDEX_WAIT_MS: '0' });
  });
  afterAll(async () => {
    await mcp?.close();
    ws?.cleanup();
  });

  it('a first search starts indexing and answers `indexing` at once, with the task', async () => {
    const t0 = Date.now();
    const r = await mcp.call('search', { query: 'order total' });
    expect(Date.now() - t0).toBeLessThan(20_000); // a hang, not a slow answer: the latency is a bench figure (bench/latency.ts)
    expect(r.isError).toBe(false);
    expect(r.structured.status).toBe('indexing');
    expect(r.structured.task).toMatchObject({ kind: 'reindex', trigger: 'search' });
    expect(r.structured.hint).toMatch(/search again/);
    expect(r.text).toMatch(/task t\d+-\w+ \(incremental, by search\)/);
    // A second search joins the same run instead of starting another: while the run lasts it names
    // the same task; either way the server ran exactly one search-triggered index.
    const again = await mcp.call('search', { query: 'order total' });
    expect(['indexing', 'ok']).toContain(again.structured.status);
    if (again.structured.status === 'indexing') expect(again.structured.task.task_id).toBe(r.structured.task.task_id);
    const done = await mcp.call('status', { task_id: r.structured.task.task_id, wait_ms: 40_000 });
    expect(done.structured.task.state).toBe('done');
    const bySearch = done.structured.tasks.filter((t: { trigger: string }) => t.trigger === 'search');
    expect(bySearch.map((t: { task_id: string }) => t.task_id)).toEqual([r.structured.task.task_id]);
    const ok = await mcp.call('search', { query: 'order total' });
    expect(ok.structured.status).toBe('ok');
  });

  it('keeps the default answer under the token budget and reports truncation', async () => {
    const def = await mcp.call('search', { query: 'order' });
    expect(def.structured.status).toBe('ok');
    expect(def.structured.hits.length).toBe(8);
    expect(def.structured.next_cursor).toBeTruthy();
    expect(JSON.stringify(def.structured).length / 4).toBeLessThanOrEqual(3000);

    const wide = await mcp.call('search', { query: 'order', limit: 50 });
    const s = wide.structured;
    expect(s.truncated).toBe(true);
    expect(s.next_cursor).toBeTruthy();
    expect(s.hits.length).toBeGreaterThan(0);
    expect(s.hits.length).toBeLessThan(50);
    expect(JSON.stringify(s).length / 4).toBeLessThanOrEqual(3000);
    expect(wide.text.length / 4).toBeLessThanOrEqual(3000);
    expect(wide.text).toMatch(/cut by max_tokens/);
    const next = await mcp.call('search', { query: 'order', limit: 50, cursor: s.next_cursor });
    expect(next.structured.hits[0].rank).toBe(s.hits.length + 1);

    const small = await mcp.call('search', { query: 'order', limit: 50, max_tokens: 600 });
    expect(JSON.stringify(small.structured).length / 4).toBeLessThanOrEqual(600);
    expect(small.structured.truncated).toBe(true);
  });

  it('cancels a running reindex; the index stays usable', async () => {
    const r = await mcp.call('reindex', { full: true });
    const id = r.structured.task.task_id;
    const c = await mcp.call('reindex', { cancel: true, task_id: id });
    expect(c.structured.status).toBe('ok');
    expect(c.structured.task).toMatchObject({ task_id: id, state: 'cancelled', cancel_requested: true });
    expect(c.structured.hint).toMatch(/cancelled/);
    expect(c.text).toMatch(new RegExp(`task ${id} .*: cancelled`));
    const s = await mcp.call('search', { query: 'order' });
    expect(['ok', 'indexing']).toContain(s.structured.status);
    expect(s.structured.hits.length).toBeGreaterThan(0);
    // Cancelling a finished task says so.
    const again = await mcp.call('reindex', { cancel: true, task_id: id });
    expect(again.structured.task.state).toBe('cancelled');
    // A later run finishes the job.
    const fin = await mcp.call('reindex', { wait_ms: 40_000 });
    expect(fin.structured.task.state).toBe('done');
    expect((await mcp.call('status', {})).structured.index.build_state).toBe('complete');
  });
});

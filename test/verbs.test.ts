// The verb table (core/service/verbs.ts) and what is derived from it: every verb's failure answer
// fits its answer schema on every surface, a thrown failure inside a handler comes back as that
// answer with the index's freshness, the MCP tools are presenters of table verbs whose listed schemas
// are the verbs' own (tightened, never widened), and the CLI's and the Worker's calls reach the same
// answers. Through a real workspace on disk, the real WASM SQLite and the real service.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as path from 'node:path';
import * as fs from 'node:fs';
import * as contract from '../core/contract/index.ts';
import { HciService, VERBS, VERB_NAMES, type VerbName } from '../core/service/index.ts';
import type { Surface } from '../core/contract/errors.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { toolDefs } from '../runtimes/mcp/tools.ts';
import { boundTool, jsonSchema } from '../runtimes/mcp/tool.ts';
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');

describe('the verb table', () => {
  let root: string;
  const services: HciService[] = [];
  const service = (surface: Surface) => {
    const svc = new HciService({ root, host: nodeServiceHost(), surface, watch: 'off' });
    services.push(svc);
    return svc;
  };

  beforeAll(async () => {
    root = copyWorkspace(sample, 'hci-verbs-');
    const svc = service('cli');
    await svc.index();
  }, 60_000);

  afterAll(async () => {
    for (const s of services) await s.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('answers every verb\'s failure in the shape its answer schema declares, on every surface', async () => {
    expect(VERB_NAMES.length).toBeGreaterThanOrEqual(15);
    for (const surface of ['cli', 'mcp', 'browser'] as const) {
      const svc = service(surface);
      for (const verb of VERB_NAMES) {
        const raw = { query: 'Foo', hit_id: '1.abc', path: 'src/X.cs', thread_id: 't1', mode: 'hybrid', file: 'src/Y.cs' };
        const out = await svc.failure(verb, { error: { code: 'invalid_arguments', message: 'refused' }, hint: 'try again' }, raw);
        const parsed = VERBS[verb].schemas(contract).output.safeParse(out);
        expect(parsed.success, `${surface} ${verb}: ${parsed.error?.message}`).toBe(true);
        expect(out).toMatchObject({ status: 'error', error: { code: 'invalid_arguments', message: 'refused' }, hint: 'try again' });
        // Every answer says how fresh the index is, failures included.
        expect(out.index?.files, `${surface} ${verb}`).toBeGreaterThan(0);
      }
      // What the request said is echoed where the answer has the field.
      expect(await svc.failure('search', { error: { code: 'x', message: 'y' } }, { query: 'Foo', mode: 'hybrid' })).toMatchObject({ query: 'Foo', mode: 'hybrid' });
      expect(await svc.failure('explain', { error: { code: 'x', message: 'y' } }, { hit_id: '1.abc' })).toMatchObject({ hit_id: '1.abc' });
      expect(await svc.failure('outline', { error: { code: 'x', message: 'y' } }, 42)).toMatchObject({ path: '' });
      // The host's own fields only where its surface shows them.
      const status = await svc.failure('status', { error: { code: 'x', message: 'y' } }, {});
      expect('watcher' in status).toBe(surface === 'mcp');
    }
  });

  it('answers a failure thrown inside a handler with the verb\'s failure answer and freshness', async () => {
    const svc = service('cli');
    const folder = await svc.call('outline', { path: 'src/' });
    expect(folder).toMatchObject({ status: 'error', path: 'src/', symbols: [], error: { code: 'invalid_arguments' } });
    expect(folder.index?.files).toBeGreaterThan(0);
    const outside = await svc.call('search', { query: 'PlaceOrder', paths: ['../elsewhere'] });
    expect(outside).toMatchObject({ status: 'error', query: 'PlaceOrder', mode: 'keyword', hits: [], error: { code: 'path_outside_workspace' } });
    expect(contract.searchAnswer.safeParse(outside).success).toBe(true);
    const ok = await svc.call('search', { query: 'PlaceOrder', limit: 3 });
    expect(ok.status).toBe('ok');
    expect(ok.hits.length).toBeGreaterThan(0);
    // The verb the Worker and the CLI ask by name answers as the MCP tool does (less the tool's surface defaults).
    const viaTool = await boundTool(toolDefs(root).find((t) => t.name === 'search')!).call(service('mcp'), { query: 'PlaceOrder', limit: 3 }, {});
    expect((viaTool.out as typeof ok).hits.map((h) => h.hit_id)).toEqual(ok.hits.map((h) => h.hit_id));
  });

  it('derives every MCP tool from a verb: its listed schemas are the verb\'s, at most tightened', () => {
    const tools = toolDefs('/w');
    expect(new Set(tools.map((t) => t.name)).size).toBe(tools.length);
    for (const t of tools) {
      expect(VERB_NAMES).toContain(t.verb);
      const bound = boundTool(t);
      const { input, output } = VERBS[t.verb as VerbName].schemas(contract);
      const verbInput = jsonSchema(input, 'input') as { properties?: Record<string, unknown> };
      const toolInput = bound.listing.inputSchema as { properties?: Record<string, unknown> };
      // Every argument a tool lists is one of its verb's request fields.
      for (const k of Object.keys(toolInput.properties ?? {})) expect(Object.keys(verbInput.properties ?? {}), `${t.name}.${k}`).toContain(k);
      // The answer is the verb's (status's declares the host fields always there: a subtype).
      if (t.verb !== 'status') expect(bound.listing.outputSchema).toEqual(jsonSchema(output, 'output'));
    }
  });
});

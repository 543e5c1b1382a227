// A published index read over HTTP range requests under Deno: the sample workspace indexed and packed
// by Node, served by a real HTTP server on 127.0.0.1, and searched by the Deno CLI with --index (its
// range requests go through a module Worker, runtimes/deno/http-reader.ts): the same hits as Node's
// local answer; a server that ignores ranges is remote_no_ranges; without --allow-net the answer
// says which permission to grant.
// @lane runtimes
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/workspace.ts';
import { copyWorkspace, tmpDir } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { indexAndPack } from './helpers/published-index.ts';
import { DENO_CLI, REPO, startDeno } from './helpers/deno.ts';
import { denoBinary, titled } from './helpers/runtimes.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
const deno = denoBinary();
const hitsOf = (r: { hits: Array<Record<string, unknown>> }) => r.hits.map((h) => ({ id: h.hit_id, path: h.path, lines: [h.start_line, h.end_line], score: h.score }));

describe.skipIf(!deno)(titled('a published index over HTTP under Deno', { Deno: deno }), () => {
  let root: string;
  let out: string;
  let server: RangeServer;
  let plain: RangeServer;
  const run = (args: string[], net = true) =>
    startDeno(deno!, ['--no-prompt', `--allow-read=${path.join(REPO, 'node_modules')}`, ...(net ? [`--allow-net=${new URL(server.origin).host}`] : [])], DENO_CLI, args).exited;

  beforeAll(async () => {
    root = copyWorkspace(sample, 'hci-deno-remote-');
    out = tmpDir('hci-deno-remote-out-');
    await indexAndPack(root, path.join(out, 'index.sqlite'));
    server = await startRangeServer(out);
    plain = await startRangeServer(out, { ranges: false });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await plain?.close();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(out, { recursive: true, force: true });
  });

  it('answers search and outline as Node answers from the local index', async () => {
    const local = await openWorkspace(root);
    try {
      for (const query of ['CatalogService', 'order total discount', 'ext:json logging']) {
        const r = await run(['search', query, '--index', server.url('index.sqlite'), '--json']);
        expect(r.code, r.stderr).toBeLessThanOrEqual(1);
        expect(hitsOf(r.json), query).toEqual(hitsOf(await local.search({ query })));
      }
      const file = 'src/Contoso.Shop.Application/Catalog/CatalogService.cs';
      const o = await run(['outline', file, '--index', server.url('index.sqlite'), '--json']);
      expect(o.code, o.stderr).toBe(0);
      expect(o.json.symbols).toEqual((await local.outline(file)).symbols);
    } finally {
      local.close();
    }
  });

  it('says when the server does not serve ranges, and which permission is missing', async () => {
    const r = await startDeno(deno!, ['--no-prompt', `--allow-read=${path.join(REPO, 'node_modules')}`, `--allow-net=${new URL(plain.origin).host}`], DENO_CLI, ['search', 'x', '--index', plain.url('index.sqlite'), '--json']).exited;
    expect(r.code).not.toBe(0);
    expect(r.json?.error?.code, r.stderr).toBe('remote_no_ranges');
    const denied = await run(['search', 'x', '--index', server.url('index.sqlite'), '--json'], false);
    expect(denied.code).not.toBe(0);
    expect(`${denied.stdout}${denied.stderr}`).toMatch(/allow-net/);
  });
});

// Every runtime reads every runtime's index. The sample workspace is indexed by Node (in process), by
// the Deno CLI (runtimes/deno/cli.ts, a real Deno process) and by the browser runtime (the Worker in
// headless Chromium, its index exported); each of the three index files is then searched through the
// Deno library entry (runtimes/deno/mod.ts, in a real Deno process, as a Deno user imports it) and
// through Node, and every query must give the same hits everywhere. mod.ts once answered
// `index_corrupt` for all of them: importing it installed Node's zlib codec, which under Deno ignores
// the preset deflate dictionary of the stored files.
// @lane runtimes
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { SearchRequest, SearchResponse } from '../core/search/contract.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { openSamplePage, call, REPO, type SamplePage } from './helpers/browser.ts';
import { denoSession, runDenoCli } from './helpers/deno.ts';
import { chromiumBinary, denoBinary, titled } from './helpers/runtimes.ts';

const deno = denoBinary();
const chromium = chromiumBinary();
import { copyWorkspace } from './helpers/tmp-workspace.ts';

const sample = path.join(REPO, 'test/sample-workspace');
const QUERIES: SearchRequest[] = [
  { query: 'GetCatalogItemsAsync' },
  { query: 'where is the order discount calculated' },
  { query: 'MaxItemsPerOrder ext:json' },
  { query: 'OrdersGrid' },
  { query: '"@page" path:src/Contoso.Shop.Web/Components/Pages' },
  { query: 'order', limit: 3, cursor: 'o3' },
];
const hitsOf = (r: SearchResponse) => ({ status: r.status, error: r.error, hits: r.hits.map((h) => ({ path: h.path, start_line: h.start_line, end_line: h.end_line, score: h.score, hit_id: h.hit_id, snippet: h.snippet })) });

async function nodeSearches(root: string): Promise<SearchResponse[]> {
  const ws = await openWorkspace(root);
  try {
    const out: SearchResponse[] = [];
    for (const q of QUERIES) out.push(await ws.search(q));
    return out;
  } finally {
    ws.close();
  }
}

describe.skipIf(!deno || !chromium)(titled('cross-writer: indexes written by Node, the Deno CLI and the browser, read by Deno mod.ts and Node', { Deno: deno, Chromium: chromium }), () => {
  const copies: string[] = [];
  let browser: SamplePage | undefined;
  const copy = (prefix: string) => copies[copies.push(copyWorkspace(sample, prefix)) - 1];
  afterAll(async () => {
    await browser?.close();
    for (const d of copies) fs.rmSync(d, { recursive: true, force: true });
  });

  it('gives the same hits for every writer and reader', async () => {
    const written: Record<string, string> = {};

    written.node = copy('hci-xw-node-');
    const nodeWs = await openWorkspace(written.node);
    await nodeWs.index({}).finally(() => nodeWs.close());

    written['deno cli'] = copy('hci-xw-deno-');
    const cli = await runDenoCli(deno, written['deno cli'], ['index', written['deno cli'], '--json']);
    expect(cli.code, cli.stderr).toBe(0);

    browser = await openSamplePage(chromium, sample);
    const { page } = browser;
    await call(page, 'openZip', 'xw', '/fixtures/sample.zip');
    await call(page, 'index', 'xw');
    written.browser = copy('hci-xw-browser-');
    fs.mkdirSync(path.join(written.browser, '.hci'));
    fs.writeFileSync(path.join(written.browser, '.hci/index.sqlite'), Buffer.from(await call(page, 'exportIndex', 'xw'), 'base64'));

    const reference = (await nodeSearches(written.node)).map(hitsOf);
    expect(reference.every((r) => r.status === 'ok' && r.hits.length > 0), JSON.stringify(reference.map((r) => r.status))).toBe(true);
    for (const [writer, root] of Object.entries(written)) {
      const viaNode = (await nodeSearches(root)).map(hitsOf);
      const viaMod = (await denoSession(deno, { root, queries: QUERIES })).answers.map(hitsOf);
      expect(viaMod, `${writer}'s index read by Deno mod.ts`).toEqual(reference);
      expect(viaNode, `${writer}'s index read by Node`).toEqual(reference);
    }
  }, 180_000);
});

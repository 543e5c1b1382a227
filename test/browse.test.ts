// The browse calls of the service (core/browse/, contract core/contract/browse.ts) and the search and
// resolve additions the explorer needs: the file list, one file's indexed text (secret lines blank,
// paired files), counts per extension and language for a query, exclude_kinds, and resolve by name.
// Every answer is checked against its contract schema, as a surface would send it.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as path from 'node:path';
import { HciService } from '../core/service/index.ts';
import { facetsResponse, fileResponse, filesResponse, resolveRequest, resolveResponse, searchAnswer, treeResponse } from '../core/contract/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';

import * as fs from 'node:fs';
import { copyWorkspace, withTmpWorkspace } from './helpers/tmp-workspace.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
const TOKEN = 'gh' + 'p_' + 'A1b2C3d4E5'.repeat(4).slice(0, 36);
const DEPLOY_NAMES = Array.from({ length: 40 }, (_, i) => `    public string Name${i} { get; set; } = "deploy-${i}";`).join('\n');

describe('browse calls: files, file, facets; exclude_kinds; resolve by name', () => {
  let root: string;
  let svc: HciService;

  beforeAll(async () => {
    root = copyWorkspace(sample, 'hci-browse-');
    fs.writeFileSync(
      path.join(root, 'src/Contoso.Shop.Web/DeployKeys.cs'),
      `namespace Contoso.Shop.Web;\n\npublic static class DeployKeys\n{\n    public const string Token = "${TOKEN}";\n}\n\npublic class DeployNames\n{\n${DEPLOY_NAMES}\n}\n`,
    );
    svc = new HciService({ root, host: nodeServiceHost(), surface: 'browser', watch: 'off' });
    await svc.index();
  }, 60_000);

  afterAll(async () => {
    await svc?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('lists the indexed files in path order, with kinds, under a prefix', async () => {
    const all = filesResponse.parse(await svc.call('files', {}));
    expect(all.status).toBe('ok');
    expect(all.files.length).toBe(all.total);
    expect(all.files.map((f) => f.path)).toEqual([...all.files.map((f) => f.path)].sort());
    expect(all.index?.files).toBe(all.total);
    const test = all.files.find((f) => f.path === 'tests/Contoso.Shop.Tests/PricingEngineTests.cs');
    expect(test).toMatchObject({ lang: 'csharp', kinds: ['test'] });
    expect(test!.lines).toBeGreaterThan(5);

    const some = filesResponse.parse(await svc.call('files', { prefix: 'src/Contoso.Shop.Desktop/', limit: 3 }));
    expect(some.files).toHaveLength(3);
    expect(some.truncated).toBe(true);
    expect(some.files.every((f) => f.path.startsWith('src/Contoso.Shop.Desktop/'))).toBe(true);

    const outside = await svc.call('files', { prefix: '../elsewhere' });
    expect(outside).toMatchObject({ status: 'error', error: { code: 'path_outside_workspace' } });
  });

  it('reads a file as indexed: its text by line, paired files, secret lines blank, ranges', async () => {
    const rel = 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor';
    const f = fileResponse.parse(await svc.call('file', { path: rel }));
    expect(f.status).toBe('ok');
    expect(f.text).toBe(fs.readFileSync(path.join(root, rel), 'utf8').replace(/\r\n/g, '\n').replace(/\n$/, ''));
    expect(f.line_count).toBe(f.text!.split('\n').length);
    expect(f.paired_files).toEqual([
      { path: `${rel}.cs`, relation: 'code_behind' },
      { path: `${rel}.css`, relation: 'scoped_css' },
    ]);
    const view = fileResponse.parse(await svc.call('file', { path: 'src/Contoso.Shop.Desktop/Views/InventoryView.axaml.cs' }));
    expect(view.paired_files).toContainEqual({ path: 'src/Contoso.Shop.Desktop/Views/InventoryView.axaml', relation: 'markup' });

    const keys = fileResponse.parse(await svc.call('file', { path: 'src/Contoso.Shop.Web/DeployKeys.cs' }));
    expect(keys.secret_chunks).toBeGreaterThan(0);
    expect(keys.text).not.toContain(TOKEN);
    expect(keys.text).toContain('DeployNames');
    expect(keys.hint).toMatch(/secret/);

    const part = await svc.call('file', { path: rel, start_line: 2, end_line: 3 });
    expect(part.text).toBe(f.text!.split('\n').slice(1, 3).join('\n'));
    expect(part).toMatchObject({ start_line: 2, end_line: 3 });
    expect(await svc.call('file', { path: 'src/Nope.cs' })).toMatchObject({ status: 'error', error: { code: 'not_indexed' } });
  });

  it('counts a query\'s matches per extension and language, ignoring ext filters, honouring kinds', async () => {
    const q = 'PricingEngine';
    const all = facetsResponse.parse(await svc.call('facets', { query: `${q} ext:axaml` }));
    expect(all.status).toBe('ok');
    expect(all.match).toBe('all');
    const cs = all.exts.find((e) => e.ext === '.cs')!;
    expect(cs.lang).toBe('csharp');
    expect(all.files).toBe(all.exts.reduce((n, e) => n + e.files, 0));
    expect(all.langs.find((l) => l.lang === 'csharp')?.exts).toEqual(['.cs']);

    // The counts agree with search: the .cs files that search finds, page by page, are the facet's files.
    const paths = new Set<string>();
    for (let cursor: string | undefined, i = 0; i < 20; i++) {
      const res = searchAnswer.parse(await svc.call('search', { query: q, exts: ['cs'], limit: 50, cursor }));
      res.hits.forEach((h) => paths.add(h.path));
      cursor = res.next_cursor;
      if (!cursor) break;
    }
    expect(paths.size).toBe(cs.files);

    const noTests = facetsResponse.parse(await svc.call('facets', { query: q, exclude_kinds: ['test'] }));
    expect(noTests.files).toBeLessThan(all.files);
    const hits = searchAnswer.parse(await svc.call('search', { query: q, limit: 50, exclude_kinds: ['test'] }));
    expect(hits.hits.length).toBeGreaterThan(0);
    expect(hits.hits.some((h) => h.path.startsWith('tests/'))).toBe(false);
    const withTests = await svc.call('search', { query: q, limit: 50 });
    expect(withTests.hits.some((h) => h.path.startsWith('tests/'))).toBe(true);
    // exclude_kinds is part of what a hit id remembers: explain ranks it within the same filters.
    const why = await svc.call('explain', { hit_id: hits.hits[0].hit_id });
    expect(why.explanation?.rank).toBe(1);

    expect(await svc.call('facets', { query: 'zzzqqqnothing' })).toMatchObject({ status: 'empty', files: 0 });
  });

  it('resolves a name to the symbols defined with it (go to definition)', async () => {
    const r = resolveResponse.parse(await svc.call('resolve', { name: 'PricingEngine' }));
    expect(r.status).toBe('ok');
    expect(r.locations.some((l) => l.path === 'src/Contoso.Shop.Application/Pricing/PricingEngine.cs' && l.kind === 'class')).toBe(true);
    expect(r.locations.every((l) => l.name === 'PricingEngine')).toBe(true);
    expect(resolveResponse.parse(await svc.call('resolve', { name: 'NoSuchSymbolAnywhere' })).status).toBe('empty');
    expect(resolveRequest.safeParse({ name: 'A', member_key: 'B' }).success).toBe(false);
    expect(resolveRequest.safeParse({ name: 'A' }).success).toBe(true);
    expect(await svc.call('resolve', { name: 'A', member_key: 'B' } as never)).toMatchObject({ status: 'error', error: { code: 'invalid_request' } });
  });
});

describe('tree: folders named with any characters', () => {
  it('lists a folder whose name holds a character outside the BMP (two UTF-16 units, one SQLite character)', async () => {
    await withTmpWorkspace({ 'docs/🚀 launch/plan.md': '# Plan\n', 'docs/🚀 launch/steps/one.md': '# One\n', 'docs/readme.md': '# Docs\n', 'top.md': '# Top\n' }, async (ws) => {
      const svc = new HciService({ root: ws.root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
      try {
        await svc.index();
        const root = treeResponse.parse(await svc.call('tree', {}));
        expect(root).toMatchObject({ status: 'ok', folder: '', total: 4, folders: [{ path: 'docs/', name: 'docs', files: 3 }], truncated: false });
        expect(root.files.map((f) => f.path)).toEqual(['top.md']);
        const docs = treeResponse.parse(await svc.call('tree', { folder: 'docs' }));
        expect(docs.folders).toEqual([{ path: 'docs/🚀 launch/', name: '🚀 launch', files: 2 }]);
        expect(docs.files.map((f) => f.path)).toEqual(['docs/readme.md']);
        const launch = treeResponse.parse(await svc.call('tree', { folder: 'docs/🚀 launch/' }));
        expect(launch).toMatchObject({ status: 'ok', total: 2, folders: [{ path: 'docs/🚀 launch/steps/', name: 'steps', files: 1 }], truncated: false });
        expect(launch.files.map((f) => f.path)).toEqual(['docs/🚀 launch/plan.md']);
      } finally {
        await svc.close();
      }
    });
  }, 60_000);
});

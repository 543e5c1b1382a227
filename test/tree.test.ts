// The tree verb, added through the verb table (core/contract/tree.ts, core/browse/tree.ts, a handler
// in core/service/read-calls.ts, its row in core/service/verbs.ts, a presenter per surface): one
// folder of the index at a time, its subfolders with file counts and its own files — the same answer
// from the service, `hci tree --json` and the MCP tool, each checked against its contract schema.
// Real processes: the built CLI and an MCP server over stdio on a copy of the sample workspace.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HciService } from '../core/service/index.ts';
import { treeResponse } from '../core/contract/index.ts';
import { nodeServiceHost } from '../runtimes/node/service-host.ts';
import { copySample, ensureBuilt, startStdio, type McpConn } from './helpers/mcp-harness.ts';
import { runCli } from './helpers/hci-process.ts';

describe('the tree verb', () => {
  const ws = copySample('hci-tree-');
  let svc: HciService;
  let mcp: McpConn | undefined;

  beforeAll(async () => {
    ensureBuilt();
    svc = new HciService({ root: ws.root, host: nodeServiceHost(), surface: 'cli', watch: 'off' });
    await svc.index();
  }, 60_000);

  afterAll(async () => {
    await mcp?.close();
    await svc?.close();
    ws.cleanup();
  });

  it('lists one folder: subfolders with the files below them, its own files, by name', async () => {
    const root = treeResponse.parse(await svc.call('tree', {}));
    expect(root).toMatchObject({ status: 'ok', folder: '', truncated: false });
    expect(root.index?.files).toBe(root.total);
    // Every indexed file is below exactly one subfolder or is the folder's own.
    expect(root.folders.reduce((n, f) => n + f.files, 0) + root.files.length).toBe(root.total);
    expect(root.folders.map((f) => f.name)).toEqual([...root.folders.map((f) => f.name)].sort());
    expect(root.folders.map((f) => f.path)).toContain('src/');
    expect(root.files.map((f) => f.path)).toContain('README.md');

    const src = root.folders.find((f) => f.path === 'src/')!;
    const down = treeResponse.parse(await svc.call('tree', { folder: src.path }));
    expect(down.total).toBe(src.files);
    expect(down.folder).toBe('src/');
    expect(down.folders.every((f) => f.path.startsWith('src/') && f.path.endsWith('/') && !f.name.includes('/'))).toBe(true);
    // A folder named without its slash, or through ./, is the same folder.
    expect((await svc.call('tree', { folder: './src' })).total).toBe(src.files);

    // A deep folder of one project: its files with their languages and kinds, each one level down only.
    const tests = treeResponse.parse(await svc.call('tree', { folder: 'tests/Contoso.Shop.Tests' }));
    expect(tests.files.find((f) => f.path === 'tests/Contoso.Shop.Tests/PricingEngineTests.cs')).toMatchObject({ lang: 'csharp', kinds: ['test'] });
    expect(tests.files.every((f) => !f.path.slice(tests.folder.length).includes('/'))).toBe(true);

    const cut = await svc.call('tree', { folder: 'tests/Contoso.Shop.Tests', limit: 1 });
    expect(cut.files).toHaveLength(1);
    expect(cut.truncated).toBe(tests.files.length > 1);

    expect(await svc.call('tree', { folder: 'no/such/folder' })).toMatchObject({ status: 'empty', total: 0, hint: expect.stringMatching(/no indexed file under no\/such\/folder\//) });
    expect(await svc.call('tree', { folder: '../elsewhere' })).toMatchObject({ status: 'error', folder: '../elsewhere', error: { code: 'path_outside_workspace' } });
  });

  it('answers the same on the command line, a folder read from the current folder', async () => {
    const viaService = await svc.call('tree', { folder: 'src/' });
    const json = await runCli(['tree', path.join(ws.root, 'src'), '--json']);
    expect(json.code, json.stderr).toBe(0);
    const cli = treeResponse.parse(JSON.parse(json.stdout));
    expect(cli.folders).toEqual(viaService.folders);
    expect(cli.files).toEqual(viaService.files);
    const human = await runCli(['tree', 'src', '--root', ws.root]);
    expect(human.code, human.stderr).toBe(0);
    for (const f of viaService.folders) expect(human.stdout).toContain(`${f.name}/`);
    // Nothing indexed there: exit 1, as a search that finds nothing.
    fs.mkdirSync(path.join(ws.root, 'empty-folder'), { recursive: true });
    expect((await runCli(['tree', 'empty-folder', '--root', ws.root])).code).toBe(1);
  }, 60_000);

  it('is an MCP tool with the verb\'s schemas', async () => {
    mcp = await startStdio(ws.root, ['--watch', 'off']);
    const { tools } = await mcp.client.listTools();
    const tool = tools.find((t) => t.name === 'tree')!;
    expect(tool.annotations).toMatchObject({ readOnlyHint: true });
    expect(Object.keys((tool.inputSchema as { properties: object }).properties)).toEqual(['folder', 'limit']);
    const r = await mcp.call('tree', { folder: 'src/' });
    expect(r.isError).toBe(false);
    expect(treeResponse.parse(r.structured).folders).toEqual((await svc.call('tree', { folder: 'src/' })).folders);
    expect(r.text).toMatch(/^src\/ \d+ files/);
    const bad = await mcp.call('tree', { folder: 3 });
    expect(bad.structured).toMatchObject({ status: 'error', folder: '', error: { code: 'invalid_arguments' } });
  }, 60_000);
});

// File names that hold a `\` (a legal name character on POSIX; issue 17 item 8) through the CLI
// (Node and Deno) and the MCP server: the path rule of the surfaces (runtimes/shared/path-guard.ts)
// keeps `\` as a name character where the file system does, so `src/Odd\Name.cs` is that file and not
// `src/Odd/Name.cs` beside it — in outline, resolve, search path filters and reindex paths, relative
// or absolute. A `\` never carries a `..` out of the workspace, a Windows-style absolute path is never
// read as a name below the current folder, and a workspace without real paths (the browser) still
// reads `\` as a separator.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileSystemPathGuard } from '../runtimes/shared/path-guard.ts';
import { relativePathGuard } from '../core/service/paths.ts';
import { HciError } from '../core/platform.ts';
import { ensureBuilt, startStdio, type McpConn } from './helpers/mcp-harness.ts';
import { CLI_RUNTIMES, cliJson, type CliRuntimeName } from './helpers/cli-json.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

const ODD = 'src/Odd\\Name.cs';
const NESTED = 'src/Odd/Name.cs';
const cs = (cls: string) => `namespace Shop.Odd;\n\npublic class ${cls}\n{\n    public void Place(int id) { }\n\n    public void Place(string code)\n    {\n        var trimmed = code.Trim();\n    }\n}\n`;

function makeWorkspace(prefix: string): { root: string; cleanup(): void } {
  const root = tmpDir(prefix);
  fs.mkdirSync(path.join(root, 'src', 'Odd'), { recursive: true });
  fs.writeFileSync(path.join(root, ODD), cs('BackslashNamed'));
  fs.writeFileSync(path.join(root, NESTED), cs('FolderNested'));
  return { root, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

const codeOf = (f: () => unknown): string | undefined => {
  try {
    f();
    return undefined;
  } catch (e) {
    return (e as HciError).code;
  }
};

describe.skipIf(path.sep !== '/')('the path rule of the surfaces on POSIX', () => {
  const root = fs.realpathSync(os.tmpdir());
  const guard = fileSystemPathGuard(root);

  it('keeps `\\` as a name character, relative and absolute', () => {
    expect(guard.toRelative(ODD)).toBe(ODD);
    expect(guard.toRelative(`./${ODD}`)).toBe(ODD);
    expect(guard.toRelative(path.join(root, ODD))).toBe(ODD);
    expect(guard.toRelative(`file://${root}/src/Odd%5CName.cs`)).toBe(ODD);
    expect(guard.toRelative('src\\')).toBe('src\\');
    expect(guard.toRelative('src/')).toBe('src/');
    // A name that merely begins with two dots stays inside.
    expect(guard.toRelative(path.join(root, '..hidden', 'a.cs'))).toBe('..hidden/a.cs');
  });

  it('lets no `\\` carry a `..` out, and refuses Windows-style absolute paths', () => {
    for (const p of ['..\\etc\\passwd', 'src\\..\\..\\x.cs', `${root}/a\\..\\..\\..\\etc`, '../x', 'C:\\Windows\\win.ini', 'C:/Windows/win.ini', '\\\\server\\share\\x.cs']) {
      expect(codeOf(() => guard.toRelative(p)), p).toBe('path_outside_workspace');
    }
    // Even when the current folder is the workspace: `C:\x` is not a name below it.
    expect(codeOf(() => fileSystemPathGuard(process.cwd()).toRelative('C:\\Windows\\win.ini'))).toBe('path_outside_workspace');
    // Inside the workspace a `\` reading that stays inside is one name.
    expect(guard.toRelative('src\\..\\x.cs')).toBe('src\\..\\x.cs');
  });

  it('reads `\\` as a separator where the workspace has no real paths', () => {
    const g = relativePathGuard('browser');
    expect(g.toRelative(ODD)).toBe(NESTED);
    expect(codeOf(() => g.toRelative('..\\x'))).toBe('path_outside_workspace');
  });
});

describe.skipIf(path.sep !== '/').each(CLI_RUNTIMES)('the %s CLI with a file name holding a backslash', (runtime: CliRuntimeName) => {
  const ws = makeWorkspace(`hci-backslash-${runtime}-`);
  const json = (args: string[]) => cliJson(runtime, ws.root, [...args, ...(args[0] === 'index' ? [] : ['--root', ws.root]), '--json']);

  beforeAll(() => {
    ensureBuilt();
    const r = json(['index', ws.root]);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.json.files_indexed).toBe(2);
  }, 60_000);
  afterAll(() => ws.cleanup());

  it('outlines that file, not the one in the folder of the `/` reading, relative or absolute', () => {
    for (const p of [ODD, path.join(ws.root, ODD)]) {
      const o = json(['outline', p]);
      expect(o.json.status, o.stdout).toBe('ok');
      expect(o.json.path).toBe(ODD);
      expect(o.json.symbols[0].children[0].name).toBe('BackslashNamed');
    }
    expect(json(['outline', NESTED]).json.symbols[0].children[0].name).toBe('FolderNested');
  });

  it('resolves <file>:<line> in that file', () => {
    const r = json(['resolve', `${ODD}:9`]);
    expect(r.json.status, r.stdout).toBe('ok');
    expect(r.json.locations[0]).toMatchObject({ path: ODD, member_key: 'Shop.Odd.BackslashNamed.Place(string)' });
  });

  it('filters a search by that path, and re-indexes that path only', () => {
    const s = json(['search', 'Place', '--path', ODD]);
    expect(s.json.hits.map((h: { path: string }) => h.path), s.stdout).toContain(ODD);
    expect(json(['search', 'BackslashNamed', '--exclude', ODD]).json.hits).toEqual([]);
    fs.writeFileSync(path.join(ws.root, ODD), cs('BackslashRenamed'));
    fs.writeFileSync(path.join(ws.root, NESTED), cs('FolderRenamed'));
    const r = json(['index', ws.root, '--path', ODD]);
    expect([r.json.files_scanned, r.json.files_indexed], r.stdout).toEqual([1, 1]);
    expect(json(['search', 'BackslashRenamed']).json.hits.map((h: { path: string }) => h.path)).toEqual([ODD]);
    expect(json(['search', 'FolderRenamed']).json.hits).toEqual([]);
  });
});

describe.skipIf(path.sep !== '/')('the MCP server with a file name holding a backslash', () => {
  const ws = makeWorkspace('hci-backslash-mcp-');
  let mcp: McpConn;
  beforeAll(async () => {
    ensureBuilt();
    // The first search builds the index and waits for it (not the default 1.5 s, which a loaded machine can pass).
    mcp = await startStdio(ws.root, ['--watch', 'off'], { HCI_MCP_FIRST_INDEX_WAIT_MS: '50000' });
    const r = await mcp.call('search', { query: 'BackslashNamed' });
    expect(r.structured.status, r.text).toBe('ok');
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    ws.cleanup();
  });

  it('outlines and resolves that file, relative or absolute', async () => {
    for (const p of [ODD, path.join(ws.root, ODD)]) {
      const o = await mcp.call('outline', { path: p });
      expect(o.structured.status, o.text).toBe('ok');
      expect(o.structured.path).toBe(ODD);
      expect(o.structured.symbols[0].children[0].name).toBe('BackslashNamed');
    }
    const r = await mcp.call('resolve', { path: ODD, line: 9 });
    expect(r.structured.locations[0], r.text).toMatchObject({ path: ODD, member_key: 'Shop.Odd.BackslashNamed.Place(string)' });
    // A `\` typed as a Windows habit names no file here, and the hint says how it was read.
    const habit = await mcp.call('outline', { path: 'src\\Odd\\Missing.cs' });
    expect(habit.structured.error.code).toBe('not_indexed');
    expect(habit.structured.hint).toMatch(/\\ is part of a file name here/);
    expect((await mcp.call('outline', { path: '..\\..\\etc\\passwd' })).structured.error.code).toBe('path_outside_workspace');
  });

  it('filters a search by that path, and re-indexes that path only', async () => {
    const s = await mcp.call('search', { query: 'Place', paths: [ODD] });
    expect(s.structured.hits.map((h: { path: string }) => h.path), s.text).toContain(ODD);
    expect((await mcp.call('search', { query: 'BackslashNamed', exclude_paths: [ODD] })).structured.hits).toEqual([]);
    fs.writeFileSync(path.join(ws.root, ODD), cs('BackslashRenamed'));
    fs.writeFileSync(path.join(ws.root, NESTED), cs('FolderRenamed'));
    const r = await mcp.call('reindex', { paths: [path.join(ws.root, ODD)], wait_ms: 30_000 });
    expect(r.structured.task, r.text).toMatchObject({ state: 'done', paths: [ODD] });
    expect(r.structured.task.result).toMatchObject({ files_indexed: 1 });
    expect((await mcp.call('search', { query: 'BackslashRenamed' })).structured.hits.map((h: { path: string }) => h.path)).toEqual([ODD]);
    expect((await mcp.call('search', { query: 'FolderRenamed' })).structured.hits).toEqual([]);
  });
});

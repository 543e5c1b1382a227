// `packages/` is walked: a JavaScript/TypeScript monorepo keeps its source there (and .NET repositories
// hand-written package projects), while folders NuGet restored a package into are skipped by what
// they hold (core/scan/nuget-folders.ts, setting skip_nuget_packages) — in the whole walk, in the
// walk of single paths (a watcher's changes) and in the eval's corpus copy (bench/lib/util.ts).
// Real temp folders throughout.
// @lane unit
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSettings } from '../core/settings.ts';
import { isRestoredNugetPackage } from '../core/scan/nuget-folders.ts';
import { scanPaths, scanWorkspace, type ScanResult } from '../core/scan/walker.ts';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { copyTree } from '../bench/lib/util.ts';
import { createTmpWorkspace, tmpDir, type TmpWorkspace, type WorkspaceFiles } from './helpers/tmp-workspace.ts';

const FILES: WorkspaceFiles = {
  // A JS/TS monorepo's workspaces.
  'packages/excalidraw/index.tsx': 'export const App = () => null;\n',
  'packages/excalidraw/package.json': '{ "name": "@excalidraw/excalidraw" }\n',
  'packages/math/src/point.ts': 'export type Point = [number, number];\n',
  // A hand-written NuGet package project (as AvaloniaUI/Avalonia's packages/Avalonia).
  'packages/Avalonia/Avalonia.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n',
  'packages/Avalonia/Avalonia.props': '<Project />\n',
  // packages.config restore: packages/<Id>.<Version>/<Id>.<Version>.nupkg.
  'legacy/packages/repositories.config': '<repositories />\n',
  'legacy/packages/Newtonsoft.Json.13.0.1/Newtonsoft.Json.13.0.1.nupkg': 'PK',
  'legacy/packages/Newtonsoft.Json.13.0.1/build/Newtonsoft.Json.targets': '<Project />\n',
  'legacy/packages/Newtonsoft.Json.13.0.1/README.md': '# Json.NET\n',
  'legacy/src/App.cs': 'class App { }\n',
  // paket: packages/<Id>/<Id>.<Version>.nupkg.
  'packages/FSharp.Core/FSharp.Core.8.0.400.nupkg': 'PK',
  'packages/FSharp.Core/lib/netstandard2.1/FSharp.Core.xml.json': '{}\n',
  // The global-packages layout restored into the tree: <id>/<version>/<id>.<version>.nupkg.
  'restore/serilog/3.1.1/serilog.3.1.1.nupkg': 'PK',
  'restore/serilog/3.1.1/.nupkg.metadata': '{}\n',
  'restore/serilog/3.1.1/serilog.nuspec': '<package />\n',
  'restore/serilog/3.1.1/build/Serilog.props': '<Project />\n',
  // A .nupkg as test data, and a project that packs into its own folder: source, not packages.
  'tests/TestData/valid-package.nupkg': 'PK',
  'tests/TestData/Sample.cs': 'class Sample { }\n',
  'tools/Packer/Packer.csproj': '<Project />\n',
  'tools/Packer/Packer.1.0.0.nupkg': 'PK',
  'tools/Packer/Program.cs': 'class Program { }\n',
};

const SOURCE = [
  'legacy/src/App.cs',
  'packages/Avalonia/Avalonia.csproj',
  'packages/Avalonia/Avalonia.props',
  'packages/excalidraw/index.tsx',
  'packages/excalidraw/package.json',
  'packages/math/src/point.ts',
  'tests/TestData/Sample.cs',
  'tools/Packer/Packer.csproj',
  'tools/Packer/Program.cs',
];
const RESTORED = ['legacy/packages/Newtonsoft.Json.13.0.1', 'packages/FSharp.Core', 'restore/serilog/3.1.1'];
const RESTORED_FILES = [
  'legacy/packages/Newtonsoft.Json.13.0.1/README.md',
  'legacy/packages/Newtonsoft.Json.13.0.1/build/Newtonsoft.Json.targets',
  'packages/FSharp.Core/lib/netstandard2.1/FSharp.Core.xml.json',
  'restore/serilog/3.1.1/build/Serilog.props',
];

let ws: TmpWorkspace;
beforeAll(async () => {
  ws = await createTmpWorkspace(FILES);
});
afterAll(() => ws.cleanup());

const scan = (over: Record<string, unknown> = {}) => scanWorkspace(createNodeWorkspaceFs(ws.root), validateSettings(over));
const paths = (r: ScanResult) => r.files.map((f) => f.path);

describe('the rule', () => {
  it('a folder holding a .nupkg named after it (or after its parent and itself, or a .nupkg.metadata) is a restored package', () => {
    expect(isRestoredNugetPackage('Newtonsoft.Json.13.0.1', 'packages', ['Newtonsoft.Json.13.0.1.nupkg', 'lib'])).toBe(true);
    expect(isRestoredNugetPackage('fsharp.core', 'packages', ['FSharp.Core.8.0.400.nupkg'])).toBe(true);
    expect(isRestoredNugetPackage('3.1.1', 'serilog', ['serilog.3.1.1.nupkg', 'lib'])).toBe(true);
    expect(isRestoredNugetPackage('3.1.1', 'other', ['.nupkg.metadata'])).toBe(true);
    expect(isRestoredNugetPackage('TestData', 'tests', ['valid-package.nupkg', 'Sample.cs'])).toBe(false);
    expect(isRestoredNugetPackage('Packer', 'tools', ['Packer.1.0.0.nupkg', 'Packer.csproj'])).toBe(false);
    expect(isRestoredNugetPackage('excalidraw', 'packages', ['package.json', 'index.tsx'])).toBe(false);
  });
});

describe('the walk', () => {
  it('indexes packages/ source (JS/TS workspaces, package projects) and skips restored NuGet packages as denied_path', async () => {
    const r = await scan();
    expect(paths(r)).toEqual(SOURCE);
    for (const p of RESTORED) expect(r.skippedSamples.find((s) => s.path === p)?.reason, p).toBe('denied_path');
    expect(r.skipped.denied_path).toBe(RESTORED.length);
  });

  it('skip_nuget_packages = false walks them; exclude_path_segments = ["packages"] still denies every packages folder', async () => {
    expect(paths(await scan({ skip_nuget_packages: false }))).toEqual([...SOURCE, ...RESTORED_FILES].sort());
    const denied = await scan({ exclude_path_segments: ['packages'] });
    expect(paths(denied)).toEqual(['legacy/src/App.cs', 'tests/TestData/Sample.cs', 'tools/Packer/Packer.csproj', 'tools/Packer/Program.cs']);
  });

  it('an extra include root inside a restored package is still reached, and nothing else in it', async () => {
    const r = await scan({ extra_include_roots: ['restore/serilog/3.1.1/build'] });
    expect(paths(r)).toEqual([...SOURCE, 'restore/serilog/3.1.1/build/Serilog.props'].sort());
  });

  it('single paths (a watcher\'s changes) are judged as the whole walk judges them', async () => {
    const wfs = createNodeWorkspaceFs(ws.root);
    const settings = validateSettings({});
    for (const p of [...SOURCE, ...RESTORED_FILES, ...RESTORED, 'packages', 'legacy/packages']) {
      const r = await scanPaths(wfs, settings, [p]);
      const want = SOURCE.filter((f) => f === p || f.startsWith(`${p}/`));
      expect(r!.files.map((f) => f.path), p).toEqual(want);
    }
  });
});

describe("the eval's corpus copy", () => {
  it('copies packages/ source and leaves restored NuGet packages out, as the walk does', () => {
    const dest = tmpDir('hci-copy-');
    try {
      copyTree(ws.root, dest);
      const copied: string[] = [];
      const walk = (dir: string, rel: string) => {
        for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
          const r = rel ? `${rel}/${e.name}` : e.name;
          if (e.isDirectory()) walk(path.join(dir, e.name), r);
          else copied.push(r);
        }
      };
      walk(dest, '');
      for (const f of SOURCE) expect(copied, f).toContain(f);
      for (const d of RESTORED) expect(copied.filter((f) => f.startsWith(`${d}/`)), d).toEqual([]);
      expect(copied).toContain('legacy/packages/repositories.config');
    } finally {
      fs.rmSync(dest, { recursive: true, force: true });
    }
  });
});

// The scanning layer over real temp folders: ignore semantics, every walker skip reason, symlinks,
// extra include roots, limits, cancellation, content classification and line splitting.
// @lane unit
import { mkdir, symlink } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HciError } from '../core/platform.ts';
import type { Settings } from '../core/settings.ts';
import { validateSettings } from '../core/settings.ts';
import { classifyContent, lineAt, lineStarts, splitLines } from '../core/scan/content.ts';
import { joinedLines } from '../core/index/prepare.ts';
import { extensionOf, languageOf } from '../core/scan/languages.ts';
import { isGeneratedPath, isTestPath } from '../core/scan/roles.ts';
import type { ScanResult } from '../core/scan/walker.ts';
import { scanWorkspace } from '../core/scan/walker.ts';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import type { TmpWorkspace, WorkspaceFiles } from './helpers/tmp-workspace.ts';
import { createTmpWorkspace, withTmpWorkspace } from './helpers/tmp-workspace.ts';

const settings = (over: Record<string, unknown> = {}): Settings => validateSettings(over);
const scan = (ws: TmpWorkspace, over: Record<string, unknown> = {}) =>
  scanWorkspace(createNodeWorkspaceFs(ws.root), settings(over));
const paths = (r: ScanResult) => r.files.map((f) => f.path);
const sampleReason = (r: ScanResult, path: string) => r.skippedSamples.find((s) => s.path === path)?.reason;

async function expectHciError(p: Promise<unknown>, code: string): Promise<HciError> {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(HciError);
  expect((e as HciError).code).toBe(code);
  return e as HciError;
}

describe('gitignore semantics', () => {
  // Expected results cross-checked with `git ls-files --others --exclude-standard` on the same tree.
  const files: WorkspaceFiles = {
    '.gitignore': '*.tmp.md\n!keep.tmp.md\n/build\nlogs/\n**/generated/**\nexcluded-dir/\n!excluded-dir/inner.cs\nvendor/\n',
    '.git/info/exclude': '# local\nsecret-plan.md\n',
    'a.cs': 'x', 'x.tmp.md': 'x', 'keep.tmp.md': 'x', 'secret-plan.md': 'x',
    'build/out.cs': 'x', 'src/build/y.md': 'x',
    'logs/l.cs': 'x', 'src/logs/l.cs': 'x', 'docs/logs': 'a file named logs',
    'src/generated/g.cs': 'x', 'src/generated/deep/h.cs': 'x', 'generated.cs': 'x',
    'excluded-dir/inner.cs': 'x',
    'src/.gitignore': '*.cs\n!Keep.cs\n',
    'src/.hciignore': 'notes.md\n',
    'src/A.cs': 'x', 'src/Keep.cs': 'x', 'src/sub/B.cs': 'x', 'src/sub/Keep.cs': 'x', 'src/notes.md': 'x',
    'other/C.cs': 'x', 'other/notes.md': 'x',
    'lib/.gitignore': '!vendor/\n', 'lib/vendor/v.cs': 'x', 'vendor/w.cs': 'x',
  };
  let ws: TmpWorkspace;
  let r: ScanResult;
  beforeAll(async () => {
    ws = await createTmpWorkspace(files);
    r = await scan(ws);
  });
  afterAll(() => ws.cleanup());

  it('keeps exactly what git keeps', () => {
    expect(paths(r)).toEqual([
      'a.cs', 'generated.cs', 'keep.tmp.md', 'lib/vendor/v.cs', 'other/C.cs', 'other/notes.md',
      'src/Keep.cs', 'src/build/y.md', 'src/sub/Keep.cs',
    ]);
  });

  it('negation, anchors, directory-only patterns and **', () => {
    expect(sampleReason(r, 'x.tmp.md')).toBe('ignored');
    expect(sampleReason(r, 'build')).toBe('ignored'); // /build: root only; src/build is kept
    expect(sampleReason(r, 'logs')).toBe('ignored');
    expect(sampleReason(r, 'src/logs')).toBe('ignored'); // logs/ matches at any depth
    expect(sampleReason(r, 'docs/logs')).toBe('unsupported_ext'); // a file, not a directory
    expect(sampleReason(r, 'src/generated/g.cs')).toBe('ignored');
    expect(sampleReason(r, 'src/generated/deep')).toBe('ignored'); // the directory itself matches generated/**
  });

  it('cannot re-include a file whose parent directory is excluded; the pruned directory counts once', () => {
    expect(sampleReason(r, 'excluded-dir')).toBe('ignored');
    expect(r.skippedSamples.some((s) => s.path.startsWith('excluded-dir/'))).toBe(false);
    expect(r.skippedSamples.some((s) => s.path.startsWith('build/'))).toBe(false);
  });

  it('nested ignore files apply below their own directory only, and a deeper one can re-include', () => {
    expect(sampleReason(r, 'src/A.cs')).toBe('ignored');
    expect(sampleReason(r, 'src/sub/B.cs')).toBe('ignored');
    expect(paths(r)).toContain('other/C.cs');
    expect(sampleReason(r, 'vendor')).toBe('ignored');
    expect(paths(r)).toContain('lib/vendor/v.cs');
  });

  it('.hciignore and .git/info/exclude', () => {
    expect(sampleReason(r, 'src/notes.md')).toBe('ignored');
    expect(paths(r)).toContain('other/notes.md');
    expect(sampleReason(r, 'secret-plan.md')).toBe('ignored');
    expect(sampleReason(r, '.git')).toBe('denied_path');
  });

  it('counts by reason', () => {
    // x.tmp.md, secret-plan.md, build, logs, src/logs, 2 generated files, excluded-dir, src/A.cs,
    // src/sub/B.cs, src/notes.md, vendor
    expect(r.skipped.ignored).toBe(12);
    expect(r.skipped.denied_path).toBe(1);
  });

  it('honours a custom ignore_files list', async () => {
    const r2 = await scan(ws, { ignore_files: ['.gitignore'] });
    expect(paths(r2)).toContain('src/notes.md');
  });
});

describe('walker skip reasons', () => {
  it('denied_path prunes exact, case-sensitive segments once', async () => {
    await withTmpWorkspace(
      { 'node_modules/a/b.js': 'x', 'node_modules/c.js': 'x', 'src/bin/Debug/x.cs': 'x', 'src/Bin/y.cs': 'x', 'binary/z.cs': 'x', 'src/obj': 'file named obj' },
      async (ws) => {
        const r = await scan(ws);
        expect(paths(r)).toEqual(['binary/z.cs', 'src/Bin/y.cs']);
        expect(r.skipped.denied_path).toBe(3);
        expect(sampleReason(r, 'node_modules')).toBe('denied_path');
        expect(sampleReason(r, 'src/bin')).toBe('denied_path');
        expect(sampleReason(r, 'src/obj')).toBe('denied_path');
      },
    );
  });

  it('unsupported_ext, exclude_extensions and cs_excluded', async () => {
    await withTmpWorkspace(
      { 'a.cs': 'x', 'b.txt': 'x', 'c.PNG': 'x', 'Dockerfile': 'x', 'd.min.js': 'x', 'e.js': 'x', '.editorconfig': 'root = true', 'f.razor.cs': 'x' },
      async (ws) => {
        const r = await scan(ws, { exclude_extensions: ['js'], include_cs_in_fts: false });
        expect(paths(r)).toEqual(['.editorconfig']);
        expect(r.files[0]).toMatchObject({ ext: '.editorconfig', lang: 'editorconfig', size: 11 });
        expect(r.skipped.unsupported_ext).toBe(5);
        expect(r.skipped.cs_excluded).toBe(2);
        expect(sampleReason(r, 'f.razor.cs')).toBe('cs_excluded');
      },
    );
  });

  it('too_large uses the stat size against max_indexed_file_bytes', async () => {
    await withTmpWorkspace({ 'ok.md': 'x'.repeat(100), 'big.md': 'x'.repeat(101) }, async (ws) => {
      const r = await scan(ws, { max_indexed_file_bytes: 100 });
      expect(paths(r)).toEqual(['ok.md']);
      expect(r.files[0].size).toBe(100);
      expect(r.files[0].mtimeMs).toBeGreaterThan(0);
      expect(r.skipped).toEqual({ too_large: 1 });
    });
  });

  it('secret_name is checked before extensions, including credential directories', async () => {
    await withTmpWorkspace(
      {
        '.env': 'A=1', '.env.local': 'A=1', '.env.example': 'A=', 'id_rsa': 'k', 'certs/site.pem': 'k', 'credentials.json': '{}',
        '.ssh/config': 'Host x', '.ssh/keys/deploy': 'k', '.aws/credentials': 'k', 'src/CredentialsService.cs': 'x',
        'appsettings.json': '{}',
      },
      async (ws) => {
        const r = await scan(ws);
        expect(paths(r)).toEqual(['appsettings.json', 'src/CredentialsService.cs']);
        expect(r.skipped.secret_name).toBe(8);
        expect(sampleReason(r, '.ssh/keys/deploy')).toBe('secret_name');
        expect(sampleReason(r, '.env.example')).toBe('unsupported_ext');
      },
    );
  });

  it('symlinks: followed inside, refused outside, loops and broken links counted', async () => {
    const outside = await createTmpWorkspace({ 'leak.cs': 'x' }, 'hci-outside-');
    try {
      await withTmpWorkspace({ 'real/a.cs': 'x', 'real/.env': 'A=1', 'docs/readme.md': 'x' }, async (ws) => {
        await symlink(ws.abs('real'), ws.abs('linked'));
        await symlink('../real/a.cs', ws.abs('docs/alias.cs'));
        await symlink('../real/.env', ws.abs('docs/config.json')); // a benign name for a secret file
        await symlink(outside.root, ws.abs('out-dir'));
        await symlink(outside.abs('leak.cs'), ws.abs('out-file.cs'));
        await symlink('..', ws.abs('real/up')); // loop back to the root
        await symlink('.', ws.abs('real/self'));
        await symlink('missing.cs', ws.abs('broken.cs'));
        await mkdir(ws.abs('.git'));
        await symlink('../.git', ws.abs('real/git-link'));
        const r = await scan(ws);
        expect(paths(r)).toEqual(['docs/alias.cs', 'docs/readme.md', 'linked/a.cs', 'real/a.cs']);
        expect(sampleReason(r, 'out-dir')).toBe('symlink_outside');
        expect(sampleReason(r, 'out-file.cs')).toBe('symlink_outside');
        expect(sampleReason(r, 'real/up')).toBe('symlink_loop');
        expect(sampleReason(r, 'real/self')).toBe('symlink_loop');
        expect(sampleReason(r, 'broken.cs')).toBe('unreadable');
        expect(sampleReason(r, 'docs/config.json')).toBe('secret_name');
        expect(sampleReason(r, 'real/git-link')).toBe('denied_path');
        expect(r.skipped.symlink_outside).toBe(2);
        // real/up and real/self, plus linked/up and linked/self walked through the link
        expect(r.skipped.symlink_loop).toBe(4);
        expect(r.skipped.unreadable).toBe(1);
      });
    } finally {
      await outside.cleanup();
    }
  });

  it('file limit: counts every indexable file, then fails loudly with the real number', async () => {
    const files: WorkspaceFiles = {};
    for (let i = 0; i < 7; i++) files[`src/f${i}.cs`] = 'x';
    files['src/skip.txt'] = 'x';
    await withTmpWorkspace(files, async (ws) => {
      const e = await expectHciError(scan(ws, { max_files: 3 }), 'file_limit');
      expect(e.message).toBe('workspace has 7 indexable files, over max_files = 3');
      expect(e.hint).toMatch(/max_files/);
      expect(paths(await scan(ws, { max_files: 7 }))).toHaveLength(7);
    });
  });
});

describe('extra_include_roots', () => {
  it('walks roots below denied or ignored directories, with their own nested rules and the secret rules', async () => {
    await withTmpWorkspace(
      {
        '.gitignore': 'gen/\n*.md\n',
        'node_modules/@acme/lib/index.ts': 'x',
        'node_modules/@acme/lib/.gitignore': 'dist/\n',
        'node_modules/@acme/lib/dist/out.js': 'x',
        'node_modules/@acme/lib/node_modules/dep/i.js': 'x',
        'node_modules/@acme/lib/.env': 'A=1',
        'node_modules/@acme/lib/README.md': 'x',
        'node_modules/@acme/other/x.js': 'x',
        'node_modules/left-pad/index.js': 'x',
        'gen/Api.g.cs': 'x',
        'src/a.cs': 'x',
      },
      async (ws) => {
        const r = await scan(ws, { extra_include_roots: ['node_modules/@acme/lib', './gen/'] });
        // Root rules (*.md) do not reach into an extra root; its own .gitignore does.
        expect(paths(r)).toEqual(['gen/Api.g.cs', 'node_modules/@acme/lib/README.md', 'node_modules/@acme/lib/index.ts', 'src/a.cs']);
        expect(sampleReason(r, 'node_modules/@acme/lib/dist')).toBe('ignored');
        expect(sampleReason(r, 'node_modules/@acme/lib/node_modules')).toBe('denied_path');
        expect(sampleReason(r, 'node_modules/@acme/lib/.env')).toBe('secret_name');
        expect(sampleReason(r, 'node_modules')).toBe('denied_path');
        expect(r.skippedSamples.some((s) => s.path.includes('left-pad') || s.path.includes('other'))).toBe(false);
      },
    );
  });
});

describe('scan behaviour', () => {
  it('is deterministic and sorted by path', async () => {
    await withTmpWorkspace(
      { 'b/z.cs': 'x', 'a.b/y.cs': 'x', 'a/x.cs': 'x', 'A.cs': 'x', 'a-b.cs': 'x', 'a.cs': 'x', 'é.md': 'x' },
      async (ws) => {
        const r1 = await scan(ws);
        const r2 = await scan(ws);
        expect(paths(r1)).toEqual(['A.cs', 'a-b.cs', 'a.b/y.cs', 'a.cs', 'a/x.cs', 'b/z.cs', 'é.md']);
        expect(r2).toEqual(r1);
      },
    );
  });

  it('honours cancellation before and during the walk', async () => {
    const files: WorkspaceFiles = {};
    for (let d = 0; d < 20; d++) files[`d${d}/f.cs`] = 'x';
    await withTmpWorkspace(files, async (ws) => {
      const fs = createNodeWorkspaceFs(ws.root);
      const pre = new AbortController();
      pre.abort();
      await expectHciError(scanWorkspace(fs, settings(), { signal: pre.signal }), 'cancelled');
      const mid = new AbortController();
      const seen: number[] = [];
      const onProgress = (p: { dirs: number; files: number }) => {
        seen.push(p.dirs);
        if (p.dirs === 3) mid.abort();
      };
      await expectHciError(scanWorkspace(fs, settings(), { signal: mid.signal, onProgress }), 'cancelled');
      expect(Math.max(...seen)).toBe(3);
    });
  });

  it('fails loudly when the workspace root cannot be read', async () => {
    const fs = createNodeWorkspaceFs('/nonexistent/hci-test-root');
    await expectHciError(scanWorkspace(fs, settings()), 'workspace_unreadable');
  });

  it('scans a generated ~5k-file tree correctly', async () => {
    const files: WorkspaceFiles = { '.gitignore': '*.skip.cs\n' };
    let expected = 0;
    for (let p = 0; p < 25; p++) {
      for (let d = 0; d < 10; d++) {
        for (let f = 0; f < 20; f++) {
          const skip = f % 10 === 9;
          files[`src/P${p}/D${d}/F${f}${skip ? '.skip' : ''}.cs`] = 'class X {}';
          if (!skip) expected++;
        }
      }
      files[`src/P${p}/bin/Debug/out.cs`] = 'x';
    }
    await withTmpWorkspace(files, async (ws) => {
      // How long the scan takes is measured by `npm run bench` (bench/latency.ts), not asserted here.
      let progressCalls = 0;
      const r = await scanWorkspace(createNodeWorkspaceFs(ws.root), settings(), { onProgress: () => progressCalls++ });
      expect(r.files).toHaveLength(expected);
      expect(r.skipped).toEqual({ ignored: 500, denied_path: 25, unsupported_ext: 1 }); // the .gitignore itself
      expect(r.skippedSamples.filter((s) => s.reason === 'ignored')).toHaveLength(200);
      expect(progressCalls).toBeGreaterThan(250);
    });
  }, 60_000);
});

describe('node workspace fs', () => {
  it('refuses paths outside the workspace and reads bounded prefixes', async () => {
    await withTmpWorkspace({ 'a/b.md': '0123456789' }, async (ws) => {
      const fs = createNodeWorkspaceFs(ws.root);
      for (const bad of ['../x', 'a/../../x', '/etc/passwd', 'C:/x']) {
        await expectHciError(fs.readFile(bad), 'path_outside_workspace');
      }
      expect(new TextDecoder().decode(await fs.readFile('a/b.md', 4))).toBe('0123');
      expect((await fs.readFile('a/b.md', 100)).length).toBe(10);
      expect((await fs.readFile('a/b.md')).length).toBe(10);
      expect(await fs.stat('a/missing')).toBeNull();
      expect(await fs.readDir('a')).toEqual([{ name: 'b.md', kind: 'file' }]);
      expect(await fs.resolveLink('a/b.md')).toEqual({ inside: 'a/b.md' });
    });
  });
});

describe('languages', () => {
  it('maps paths to language ids and extensions', () => {
    expect(languageOf('src/Page.razor.cs')).toBe('csharp');
    expect(languageOf('Views/Home.cshtml')).toBe('razor');
    expect(languageOf('App.axaml')).toBe('axaml');
    expect(languageOf('Directory.Build.props')).toBe('msbuild');
    expect(languageOf('a/.editorconfig')).toBe('editorconfig');
    expect(languageOf('ci.YML')).toBe('yaml');
    expect(languageOf('Dockerfile')).toBe('text');
    expect(extensionOf('a/.editorconfig')).toBe('.editorconfig');
    expect(extensionOf('Foo.Razor.CS')).toBe('.cs');
    expect(extensionOf('Makefile')).toBe('');
  });

  it('recognises test and generated paths', () => {
    for (const p of ['tests/A.cs', 'src/Contoso.Shop.Tests/Foo.cs', 'src/OrderTests.cs', 'web/a.test.ts', 'web/a.spec.ts', 'test/x.md',
      // JavaScript's conventions: Jest's __mocks__/__fixtures__/__snapshots__, tstyche's __typetests__ and .tst.ts, tsd's .test-d.ts, Angular's .e2e-spec.ts.
      'src/__mocks__/fs.js', 'src/__fixtures__/pages.ts', 'src/__snapshots__/App.test.tsx.snap', 'types/__typetests__/api.tst.ts', 'index.test-d.ts', 'app/home.e2e-spec.ts', 'types/api.tst.ts']) {
      expect(isTestPath(p), p).toBe(true);
    }
    for (const p of ['src/Latest.cs', 'src/Contest/A.cs', 'src/Testing.cs', 'src/__init__/a.js', 'src/latest.ts', 'src/protest-ui.ts']) expect(isTestPath(p), p).toBe(false);
    for (const p of ['obj/A.g.cs', 'Form1.Designer.cs', 'R.designer.cs', 'api.generated.ts', 'wwwroot/lib/jquery/jquery.js',
      'site.min.css', 'app.min.js', 'Data/Migrations/20240101120000_Init.Designer.cs', 'Foo.AssemblyInfo.cs',
      // Vendored third-party code: noise to a search of this code base, as generated code is.
      'web/vendor/chart.js', 'src/third_party/zlib/inflate.c', 'lib/ThirdParty/Json/Json.cs', 'app/bower_components/x/x.js',
      // Package managers' lock files: tool output (Humanizer's website/pnpm-lock.yaml led a commit subject's answer).
      'website/pnpm-lock.yaml', 'package-lock.json', 'web/yarn.lock', 'src/App/packages.lock.json', 'Cargo.lock']) {
      expect(isGeneratedPath(p), p).toBe(true);
    }
    for (const p of ['src/Generator.cs', 'wwwroot/site.js', 'Migrations/Readme.md', 'src/Vendors.cs', 'src/VendorPortal/Api.cs', 'src/Vendors/VendorService.cs', 'src/lockfile.ts', 'src/Locks/package-lock.cs']) expect(isGeneratedPath(p), p).toBe(false);
  });
});

describe('classifyContent and splitLines', () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  it('NUL within the probe means binary; beyond it does not', () => {
    expect(classifyContent(new Uint8Array([65, 0, 66]), 8192)).toEqual({ kind: 'binary' });
    const late = new Uint8Array(20).fill(65);
    late[15] = 0;
    expect(classifyContent(late, 10).kind).toBe('text');
  });

  it('decodes invalid UTF-8 with replacement characters and flags it', () => {
    const r = classifyContent(new Uint8Array([0x61, 0xff, 0xfe, 0x62, 0xc3]), 8192);
    expect(r).toEqual({ kind: 'text', text: 'a\uFFFD\uFFFDb\uFFFD', invalidUtf8: true, bom: false });
    expect(classifyContent(enc('real \uFFFD char'), 8192)).toMatchObject({ invalidUtf8: false });
  });

  it('strips a UTF-8 BOM and decodes UTF-16 LE/BE with BOMs as text', () => {
    expect(classifyContent(new Uint8Array([0xef, 0xbb, 0xbf, ...enc('héllo\r\n')]), 8192))
      .toEqual({ kind: 'text', text: 'héllo\r\n', invalidUtf8: false, bom: true });
    const s = 'class Ä {}\r\n';
    const le = [0xff, 0xfe];
    const be = [0xfe, 0xff];
    for (const c of s) {
      const u = c.charCodeAt(0);
      le.push(u & 0xff, u >> 8);
      be.push(u >> 8, u & 0xff);
    }
    expect(classifyContent(new Uint8Array(le), 8192)).toEqual({ kind: 'text', text: s, invalidUtf8: false, bom: true });
    expect(classifyContent(new Uint8Array(be), 8192)).toEqual({ kind: 'text', text: s, invalidUtf8: false, bom: true });
  });

  it('splits on CRLF, LF and CR alike, without a phantom last line', () => {
    expect(splitLines('a\r\nb\nc\rd')).toEqual(['a', 'b', 'c', 'd']);
    expect(splitLines('a\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('a\r\n\r\nb\r\n')).toEqual(['a', '', 'b']);
    expect(splitLines('\n')).toEqual(['']);
    expect(splitLines('')).toEqual([]);
    const t = 'x\r\ny\rz\n';
    const starts = lineStarts(t);
    expect([0, 3, 5, 6].map((o) => lineAt(starts, o))).toEqual([1, 2, 3, 3]);
  });
  it('joinedLines is splitLines(text).join("\\n") for every line-break shape', () => {
    const shapes = ['', '\n', '\n\n', 'a', 'a\n', 'a\n\n', '\na', 'a\nb', 'a\r\nb\r\n', 'a\rb', 'a\r', '\r\n', 'a\n\r\nb\n', 'x\n\n\n'];
    // And random texts over the alphabet that matters: line breaks and two letters.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let i = 0; i < 500; i++) shapes.push(Array.from({ length: Math.floor(next() * 12) }, () => 'ab\n\n\r'[Math.floor(next() * 5)]).join(''));
    for (const t of shapes) expect(joinedLines(t, splitLines(t))).toBe(splitLines(t).join('\n'));
  });
});

// The pretrained code model's training pipeline (bench/model/): the committed manifest lists only
// permissive repositories, none of them forbidden (the dev set, the ranking tuning set of
// bench/golden/repos.json, the outside evaluation sets), and NOTICE names exactly its repositories;
// the trainer refuses a forbidden or non-permissive repository and a licence file that changed;
// the extractor keeps what an index would hold and pairs doc comments and commit subjects with
// their code; and a whole run over small bare mirrors made here is deterministic — two fresh runs
// and a run resumed from the first one's cached stages write the same bytes.
import { describe, it, expect, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import { sha256Hex } from '../core/index/sha256.ts';
import { LearnedModel } from '../core/vector/learned/model.ts';
import { checkManifest, forbiddenRepos, noticeText, readManifest, trainCodeModel, type Manifest } from '../bench/model/train.ts';
import { classifyLicence } from '../bench/model/mirror.ts';
import { cleanSubject, csharpDocText, docPairsOf, jsDocText, keepPath } from '../bench/model/extract.ts';
import { REPO } from './helpers/browser.ts';

const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

const MIT = `MIT License\n\nCopyright (c) 2024 Test\n\nPermission is hereby granted, free of charge, to any person obtaining a copy\nof this software and associated documentation files (the "Software"), to deal\nin the Software without restriction.\n`;

describe('the manifest', () => {
  const manifest = readManifest(path.join(REPO, 'models/manifest.json'));

  it('lists permissive repositories only, none forbidden, each once, at a full commit id', () => {
    expect(manifest.repos.length).toBeGreaterThan(40);
    expect(checkManifest(manifest, null)).toEqual([]);
    const forbidden = forbiddenRepos(manifest);
    // The tuning set of bench/golden/repos.json is among the forbidden.
    const golden = JSON.parse(fs.readFileSync(path.join(REPO, 'bench/golden/repos.json'), 'utf8')) as Record<string, { github?: string }>;
    for (const [k, v] of Object.entries(golden)) if (!k.startsWith('_')) expect(forbidden.has(v.github!.toLowerCase())).toBe(true);
    expect(forbidden.has('mudblazor/mudblazor') && forbidden.has('amwx/fluentavalonia')).toBe(true);
  });

  it('covers .NET (Avalonia, WPF, Blazor, ASP.NET, MAUI) and TypeScript/JavaScript', () => {
    const names = manifest.repos.map((r) => r.repo);
    for (const want of ['AvaloniaUI/Avalonia', 'dotnet/wpf', 'microsoft/fluentui-blazor', 'dotnet/aspire', 'dotnet/maui-samples', 'vuejs/core', 'microsoft/playwright']) expect(names).toContain(want);
  });

  it('NOTICE names exactly the manifest\'s repositories and licences', () => {
    expect(fs.readFileSync(path.join(REPO, 'NOTICE'), 'utf8')).toBe(noticeText(manifest));
  });

  it('refuses a forbidden repository and a licence that is not permissive', () => {
    const bad: Manifest = { ...manifest, repos: [...manifest.repos, { ...manifest.repos[0], repo: 'MudBlazor/MudBlazor' }, { ...manifest.repos[1], repo: 'someone/gpl', licence: 'GPL-3.0' }] };
    const errors = checkManifest(bad, null);
    expect(errors).toContainEqual(expect.stringMatching(/^MudBlazor\/MudBlazor: never train on it \(the dev set\)/));
    expect(errors).toContainEqual(expect.stringMatching(/^someone\/gpl: licence GPL-3.0 is not permissive/));
  });

  it('reads licence texts', () => {
    expect(classifyLicence(MIT)).toBe('MIT');
    expect(classifyLicence('Apache License\nVersion 2.0, January 2004\nhttp://www.apache.org/licenses/')).toBe('Apache-2.0');
    expect(classifyLicence('Redistribution and use in source and binary forms, with or without modification, are permitted. Neither the name of the copyright holder nor the names')).toBe('BSD-3-Clause');
    expect(classifyLicence('GNU GENERAL PUBLIC LICENSE Version 3')).toBeNull();
    expect(classifyLicence(`${MIT}\nSome comments are under the Creative Commons Attribution-ShareAlike 4.0 International license`)).toBeNull();
  });
});

describe('extraction', () => {
  it('keeps what an index would hold, not vendored, generated or translated files', () => {
    expect(keepPath('src/Controls/Button.cs', 'all')).toBe(true);
    expect(keepPath('packages/vite/src/node/server.ts', 'all')).toBe(true);
    expect(keepPath('docs/guide.md', 'all')).toBe(true);
    expect(keepPath('docs/guide.md', 'code')).toBe(false);
    for (const p of ['node_modules/x/index.js', 'src/bin/Debug/a.json', 'dist/app.js', 'wwwroot/lib/jquery/jquery.js', 'src/app.min.js', 'Form1.Designer.cs', 'src/locale/de.ts', 'package-lock.json', 'image.png']) expect(keepPath(p, 'all'), p).toBe(false);
  });

  it('pairs doc comments with the code they document', () => {
    const cs = ['/// <summary>Saves the user <see cref="Settings"/> to disk.</summary>', '/// <param name="path">Where.</param>', 'public void SaveSettings(string path)', '{', '    File.WriteAllText(path, Json());', '}'];
    expect(docPairsOf(cs, '.cs', 30)).toEqual([['Saves the user Settings to disk. Where.', cs.slice(2).join('\n')]]);
    expect(csharpDocText(['/// Gets the <paramref name="value"/> &lt;T&gt;'])).toBe('Gets the value <T>');
    expect(jsDocText(['/**', ' * Formats a {@link Date} for display.', ' * @param {Date} date the date', ' * @returns {string} text', ' */'])).toBe('Formats a Date for display. the date text');
    const ts = ['  /**', '   * Clamps a number between two bounds.', '   */', '  clamp(n: number, lo: number, hi: number) {', '    return Math.min(hi, Math.max(lo, n));', '  }', '}', 'export const x = 1;'];
    expect(docPairsOf(ts, '.ts', 30)).toEqual([['Clamps a number between two bounds.', ts.slice(3, 6).join('\n')]]);
  });

  it('cleans commit subjects as a query would say them, and drops noise', () => {
    expect(cleanSubject('fix(DataGrid): keep the sort order when paging (#1234)')).toBe('DataGrid keep the sort order when paging');
    expect(cleanSubject('feat: add dark mode toggle https://x.io/y')).toBe('add dark mode toggle');
    expect(cleanSubject('Bump lodash from 4.17.20 to 4.17.21')).toBeNull();
    expect(cleanSubject('Merge pull request #5 from a/b')).toBeNull();
    expect(cleanSubject('fix typo')).toBeNull();
  });
});

describe('a whole run over small mirrors', () => {
  function git(cwd: string, ...args: string[]): string {
    return execFileSync('git', args, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_AUTHOR_DATE: '2024-01-01T00:00:00Z', GIT_COMMITTER_DATE: '2024-01-01T00:00:00Z' } }).toString().trim();
  }

  /** Three repositories as bare mirrors under `root` (<owner>+<name>/repo), with a commit history. */
  function mirrors(root: string): Manifest['repos'] {
    const words = ['order', 'discount', 'price', 'catalog', 'customer', 'invoice', 'payment', 'shipping', 'cart', 'product', 'tax', 'total'];
    const repos: Manifest['repos'] = [];
    for (const [n, name] of ['alpha', 'beta', 'gamma'].entries()) {
      const work = path.join(root, 'src', name);
      fs.mkdirSync(path.join(work, 'src'), { recursive: true });
      git(work, 'init', '-q', '-b', 'main');
      fs.writeFileSync(path.join(work, 'LICENSE'), MIT);
      for (let c = 0; c < 4; c++) {
        for (let f = 0; f < 6; f++) {
          const a = words[(f + n) % words.length];
          const b = words[(f * 3 + c + n) % words.length];
          const cls = `${a[0].toUpperCase()}${a.slice(1)}${b[0].toUpperCase()}${b.slice(1)}Service`;
          fs.writeFileSync(path.join(work, 'src', `${cls}.cs`), `namespace Shop;\n/// <summary>Computes the ${a} ${b} for the customer order.</summary>\npublic class ${cls}\n{\n    public decimal Get${a}${b}(decimal ${a}) => ${a} * ${c + 1}m;\n}\n`);
        }
        fs.writeFileSync(path.join(work, 'README.md'), `# ${name}\n\nThe ${words[c]} service computes ${words[c + 1]} and ${words[c + 2]} totals.\n`);
        git(work, 'add', '-A');
        git(work, 'commit', '-q', '-m', `compute the ${words[c]} ${words[c + 3]} for each order line`);
      }
      const bare = path.join(root, 'mirrors', `test-owner+${name}`, 'repo');
      fs.mkdirSync(path.dirname(bare), { recursive: true });
      git(root, 'clone', '-q', '--bare', work, bare);
      repos.push({ repo: `test-owner/${name}`, commit: git(bare, 'rev-parse', 'HEAD'), licence: 'MIT', licence_file: 'LICENSE', licence_sha256: sha256Hex(new TextEncoder().encode(MIT)) });
    }
    return repos;
  }

  it('writes the same bytes on two fresh runs and on a resumed run; a changed licence file is refused', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-model-train-'));
    tmp.push(root);
    const repos = mirrors(root);
    const manifest: Manifest = {
      forbidden: { dev_set: ['MudBlazor/MudBlazor'], tuning_reserve: [] },
      recipe: { dims: 8, window: 3, minCount: 2, minRepos: 2, maxVocab: 1000, maxPerRow: 50, sifA: 0.01, eigPower: 0.5, oversample: 4, powerIterations: 1, seed: 7, xalDims: 0 },
      repos,
    };
    const mf = path.join(root, 'manifest.json');
    fs.writeFileSync(mf, JSON.stringify(manifest));
    const run = (work: string, out: string) => trainCodeModel({ manifest: mf, mirrors: path.join(root, 'mirrors'), work, out, notice: null, overrides: {}, log: () => {} });
    const a = await run(path.join(root, 'work-a'), path.join(root, 'a.bin'));
    const b = await run(path.join(root, 'work-b'), path.join(root, 'b.bin'));
    const c = await run(path.join(root, 'work-a'), path.join(root, 'c.bin')); // every stage cached
    expect(a.sha256).toBe(b.sha256);
    expect(c.sha256).toBe(a.sha256);
    expect(fs.readFileSync(path.join(root, 'a.bin'))).toEqual(fs.readFileSync(path.join(root, 'b.bin')));
    const model = LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(path.join(root, 'a.bin'))));
    expect(model.dims).toBe(8);
    expect(model.vocab).toEqual(expect.arrayContaining(['order', 'discount', 'customer', 'service']));
    // A token of one repository only stays out (minRepos 2): each README's heading is its own name.
    expect(model.vocab).not.toContain('alpha');
    const v = model.embed(['compute the order discount']).vectors;
    expect(Math.hypot(...v)).toBeCloseTo(1, 5);
    // The licence file changes at a new commit: the manifest's sha no longer matches.
    fs.writeFileSync(mf, JSON.stringify({ ...manifest, repos: [{ ...repos[0], licence_sha256: '0'.repeat(64) }, ...repos.slice(1)] }));
    await expect(run(path.join(root, 'work-c'), path.join(root, 'd.bin'))).rejects.toThrow(/test-owner\/alpha: LICENSE changed/);
  }, 120_000);

  /** Three small mirrors and their manifest in a temp folder, and a trainer run over them with recipe overrides. */
  function smallManifest(prefix: string) {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    tmp.push(root);
    const manifest: Manifest = {
      forbidden: { dev_set: ['MudBlazor/MudBlazor'], tuning_reserve: [] },
      recipe: { dims: 8, window: 3, minCount: 2, minRepos: 2, maxVocab: 1000, maxPerRow: 50, sifA: 0.01, eigPower: 0.5, oversample: 4, powerIterations: 1, seed: 7, xalDims: 0 },
      repos: mirrors(root),
    };
    const mf = path.join(root, 'manifest.json');
    fs.writeFileSync(mf, JSON.stringify(manifest));
    const run = (work: string, out: string, overrides: Partial<Manifest['recipe']>) => trainCodeModel({ manifest: mf, mirrors: path.join(root, 'mirrors'), work, out, notice: null, overrides, log: () => {} });
    return { root, mf, run };
  }

  it('with a dual stage in the recipe: the table trained on the name pairs too, the same bytes on two fresh runs', async () => {
    const { root, mf, run } = smallManifest('hci-model-dual-');
    const dual = { dualSources: 15, dualMaskShared: 1, dualEpochs: 2, dualMaxIds: 48 };
    const plain = await run(path.join(root, 'work-p'), path.join(root, 'p.bin'), {});
    const a = await run(path.join(root, 'work-a'), path.join(root, 'a.bin'), dual);
    const b = await run(path.join(root, 'work-b'), path.join(root, 'b.bin'), dual);
    expect(a.sha256).toBe(b.sha256);
    expect(a.sha256).not.toBe(plain.sha256);
    // Another dual seed (the recipe's dualSeed): another table over the same PPMI + SVD model, from the cached stages.
    const seeded = await run(path.join(root, 'work-a'), path.join(root, 's.bin'), { ...dual, dualSeed: 9 });
    expect(seeded.sha256).not.toBe(a.sha256);
    expect((LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(path.join(root, 's.bin')))).header.params as unknown as { dual: Record<string, number> }).dual).toMatchObject({ seed: 9 });
    expect(fs.readdirSync(path.join(root, 'work-a', 'names'))).toHaveLength(3);
    const model = LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(path.join(root, 'a.bin'))));
    expect((model.header.params as unknown as { dual: Record<string, number> }).dual).toMatchObject({ sources: 15, maskShared: 1, epochs: 2, repos: 3 });
    expect(model.vocab).toEqual(LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(path.join(root, 'p.bin')))).vocab);
    // The command (the build's train.js as the process entry) writes the same bytes: the dual stage's
    // module is loaded before the trainer's top-level await, not waited for inside it.
    const cli = JSON.parse(execFileSync(process.execPath, [
      path.join(REPO, 'dist/bench/model/train.js'), '--mirrors', path.join(root, 'mirrors'), '--manifest', mf, '--work', path.join(root, 'work-c'), '--out', path.join(root, 'c.bin'),
      ...Object.entries(dual).flatMap(([k, v]) => ['--set', `${k}=${v}`]),
    ], { stdio: ['ignore', 'pipe', 'pipe'] }).toString()) as { sha256: string };
    expect(cli.sha256).toBe(a.sha256);
  }, 120_000);

  it('with the alignment beside the model in the recipe (xalConcat): a format 2 model whose rows are both, the same bytes on two fresh runs', async () => {
    const { root, run } = smallManifest('hci-model-xal-');
    const read = (f: string) => LearnedModel.fromBytes(new Uint8Array(fs.readFileSync(path.join(root, f))));
    const plain = await run(path.join(root, 'work-p'), path.join(root, 'p.bin'), {});
    // xalConcat 0: the alignment's two sides beside the model, which stays the plain one.
    const sides = await run(path.join(root, 'work-p'), path.join(root, 's.bin'), { xalDims: 4 });
    expect(sides.sha256).toBe(plain.sha256);
    expect(read('s.bin.xal-code.bin').dims).toBe(4);
    const xal = { xalDims: 4, xalConcat: 0.5 };
    const a = await run(path.join(root, 'work-a'), path.join(root, 'a.bin'), xal);
    const b = await run(path.join(root, 'work-b'), path.join(root, 'b.bin'), xal);
    expect(a.sha256).toBe(b.sha256);
    expect(a.dims).toBe(12);
    expect(fs.existsSync(path.join(root, 'a.bin.xal-code.bin'))).toBe(false);
    const m = read('a.bin');
    const pre = read('p.bin');
    expect(m.header).toMatchObject({ format: 2, query: 'table', dims: 12 });
    expect(m.vocab).toEqual(pre.vocab);
    // Chunk and query rows share the PPMI + SVD half: the first 8 columns of a token's rows, before int8, are √½ of the plain model's unit row.
    const t = m.idOf('order')!;
    const row = (v: Int8Array, s: Float32Array, d: number) => Array.from(v.subarray(t * d, (t + 1) * d), (x) => x * s[t]);
    const plainRow = row(pre.vectors, pre.rowScale, 8);
    const n = Math.hypot(...plainRow);
    const chunkHalf = row(m.vectors, m.rowScale, 12).slice(0, 8);
    chunkHalf.forEach((x, j) => expect(x).toBeCloseTo((Math.SQRT1_2 * plainRow[j]) / n, 1));
    const q = m.querySide!;
    const queryHalf = Array.from(q.vectors.subarray(t * 12, t * 12 + 8), (x) => x * q.rowScale[t]);
    queryHalf.forEach((x, j) => expect(x).toBeCloseTo((Math.SQRT1_2 * plainRow[j]) / n, 1));
    expect(Array.from(q.vectors.subarray(t * 12 + 8, t * 12 + 12))).not.toEqual(Array.from(m.vectors.subarray(t * 12 + 8, t * 12 + 12)));
  }, 120_000);
});

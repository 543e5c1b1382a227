// Test helper: a deterministic generator of a realistic multi-project .NET workspace (C# services,
// entities and controllers, Blazor/Razor pages with @code blocks, appsettings JSON, csproj files and
// a few Markdown docs) of N files, 40–200 lines each, for crash and concurrency tests that need an
// indexing run lasting seconds. The same (seed, files) always yields byte-identical files, and the
// mutation helper edits/adds/deletes files deterministically too, so a run can be reproduced from
// its logged seed.
import { mkdirSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import * as path from 'node:path';

/** Seeded PRNG shared with the benchmark's corpus generator. */
import { mulberry32 as prng } from '../../bench/corpus-gen.ts';
import { tmpDir } from './tmp-workspace.ts';
export { prng };

export type Rng = () => number;
const int = (r: Rng, lo: number, hi: number) => lo + Math.floor(r() * (hi - lo + 1));
const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

const MODULES = ['Catalog', 'Ordering', 'Billing', 'Shipping', 'Inventory', 'Identity', 'Reporting', 'Notifications', 'Pricing', 'Returns', 'Loyalty', 'Warehouse'];
const NOUNS = ['Order', 'Invoice', 'Customer', 'Product', 'Shipment', 'Payment', 'Coupon', 'Basket', 'Refund', 'Supplier', 'Parcel', 'Ledger', 'Voucher', 'Tariff', 'Carrier', 'Stock', 'Review', 'Account'];
const ROLES = ['Service', 'Repository', 'Validator', 'Handler', 'Calculator', 'Mapper', 'Controller', 'Factory', 'Policy', 'Projection', 'Scheduler', 'Reconciler'];
const VERBS = ['Get', 'Create', 'Update', 'Cancel', 'Approve', 'Reserve', 'Release', 'Calculate', 'Validate', 'Publish', 'Archive', 'Merge', 'Split', 'Resolve', 'Apply'];
const TYPES = ['int', 'string', 'decimal', 'bool', 'Guid', 'DateTime', 'long', 'TimeSpan'];
const WORDS = ['pending', 'retry', 'threshold', 'discount', 'warehouse', 'currency', 'tenant', 'audit', 'snapshot', 'quota', 'batch', 'region', 'window', 'expiry', 'ledger', 'margin'];

export interface GeneratedFile {
  path: string;
  content: string;
}

export interface GeneratedWorkspace {
  root: string;
  seed: number;
  /** Workspace-relative paths of every generated file, in generation order. */
  paths: string[];
  /** A few identifiers that occur in exactly one file each (good search probes), with that file. */
  probes: Array<{ query: string; path: string }>;
}

function csharpFile(r: Rng, ns: string, typeName: string, targetLines: number, marker: string): string {
  const out: string[] = ['using System;', 'using System.Collections.Generic;', 'using System.Threading;', 'using System.Threading.Tasks;', '', `namespace ${ns};`, ''];
  out.push(`/// <summary>Handles ${pick(r, WORDS)} ${pick(r, NOUNS).toLowerCase()} work for ${ns}. Tag: ${marker}.</summary>`);
  const base = pick(r, ['', ` : I${typeName}`, ` : BaseHandler<${pick(r, NOUNS)}>`]);
  out.push(`public sealed class ${typeName}${base}`, '{');
  const fields = int(r, 2, 5);
  for (let i = 0; i < fields; i++) out.push(`    private readonly ${pick(r, TYPES)} _${pick(r, WORDS)}${i};`);
  out.push('');
  let m = 0;
  while (out.length < targetLines - 3) {
    const verb = pick(r, VERBS);
    const noun = pick(r, NOUNS);
    const t = pick(r, TYPES);
    if (r() < 0.25) {
      out.push(`    public ${t} ${noun}${pick(r, WORDS).replace(/^./, (c) => c.toUpperCase())}${m} { get; set; }`, '');
    } else {
      out.push(`    public async Task<${t}> ${verb}${noun}Async${m}(${pick(r, TYPES)} ${pick(r, WORDS)}, CancellationToken ct = default)`, '    {');
      const body = int(r, 3, 12);
      for (let i = 0; i < body && out.length < targetLines - 4; i++) {
        const w = pick(r, WORDS);
        switch (int(r, 0, 4)) {
          case 0: out.push(`        var ${w}${i} = await _store.Load${noun}Async(${int(r, 1, 9999)}, ct);`); break;
          case 1: out.push(`        if (${w}${i - 1 >= 0 ? i - 1 : 0} is null) throw new InvalidOperationException("${noun} ${w} missing");`); break;
          case 2: out.push(`        // ${verb.toLowerCase()} the ${noun.toLowerCase()} when the ${w} ${pick(r, WORDS)} is reached`); break;
          case 3: out.push(`        _logger.LogInformation("${verb} ${noun} {Id} in ${w}", ${int(r, 1, 500)});`); break;
          default: out.push(`        total += ${pick(r, WORDS)}Factor * ${int(r, 2, 40)}m;`);
        }
      }
      out.push(`        return default(${t});`, '    }', '');
    }
    m++;
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}

function razorFile(r: Rng, page: string, targetLines: number, marker: string): string {
  const noun = pick(r, NOUNS);
  const out: string[] = [`@page "/${page.toLowerCase()}"`, `@inject I${noun}Service ${noun}Service`, '', `<PageTitle>${page}</PageTitle>`, '', `<h1>${page} (${marker})</h1>`, ''];
  out.push('<table class="table">', '    <thead><tr><th>Id</th><th>Name</th><th>Status</th></tr></thead>', '    <tbody>');
  out.push(`    @foreach (var item in _items)`, '    {', '        <tr><td>@item.Id</td><td>@item.Name</td><td>@item.Status</td></tr>', '    }', '    </tbody>', '</table>', '');
  while (out.length < targetLines * 0.45) {
    const w = pick(r, WORDS);
    out.push(`<div class="card ${w}">`, `    <button class="btn btn-primary" @onclick="${pick(r, VERBS)}${noun}">${pick(r, VERBS)} ${w}</button>`, `    <span>@_${w}Count ${w} items</span>`, '</div>');
  }
  out.push('', '@code {', `    private List<${noun}Row> _items = new();`);
  let i = 0;
  while (out.length < targetLines - 2) {
    const verb = pick(r, VERBS);
    out.push('', `    private async Task ${verb}${noun}${i}()`, '    {', `        _items = await ${noun}Service.${verb}Async(${int(r, 1, 99)});`, `        StateHasChanged();`, '    }');
    i++;
  }
  out.push('}');
  return `${out.join('\n')}\n`;
}

function jsonFile(r: Rng, mod: string, targetLines: number, marker: string): string {
  const out: string[] = ['{', '  "Logging": {', '    "LogLevel": { "Default": "Information", "Microsoft.AspNetCore": "Warning" }', '  },', `  "Module": "${mod}",`, `  "Marker": "${marker}",`, '  "Features": {'];
  let i = 0;
  while (out.length < targetLines - 3) {
    const w = pick(r, WORDS);
    out.push(`    "${w}${pick(r, NOUNS)}${i}": { "Enabled": ${r() < 0.5}, "Limit": ${int(r, 1, 5000)}, "Region": "${pick(r, ['eu-west', 'us-east', 'ap-south'])}" },`);
    i++;
  }
  out.push('    "Last": { "Enabled": true }', '  }', '}');
  return `${out.join('\n')}\n`;
}

function markdownFile(r: Rng, mod: string, targetLines: number, marker: string): string {
  const out: string[] = [`# ${mod} module`, '', `Reference: ${marker}.`, ''];
  while (out.length < targetLines) {
    out.push(`## ${pick(r, VERBS)} ${pick(r, NOUNS).toLowerCase()}s`, '', `The ${pick(r, WORDS)} ${pick(r, NOUNS).toLowerCase()} flow uses the ${pick(r, WORDS)} ${pick(r, WORDS)} setting.`, '');
  }
  return `${out.join('\n')}\n`;
}

function csprojFile(mod: string): string {
  return [
    '<Project Sdk="Microsoft.NET.Sdk">',
    '  <PropertyGroup>',
    '    <TargetFramework>net8.0</TargetFramework>',
    '    <Nullable>enable</Nullable>',
    `    <RootNamespace>Contoso.${mod}</RootNamespace>`,
    '  </PropertyGroup>',
    '  <ItemGroup>',
    '    <PackageReference Include="Microsoft.Extensions.Logging.Abstractions" Version="8.0.0" />',
    '  </ItemGroup>',
    '</Project>',
    '',
  ].join('\n');
}

/** The content of file number `i` of a workspace (version 0 = original; higher = edited). */
export function generateFile(seed: number, i: number, version = 0): GeneratedFile {
  const r = prng((seed * 7919 + i * 104729 + version * 15485863) >>> 0);
  const mod = MODULES[i % MODULES.length];
  const ns = `Contoso.${mod}`;
  const marker = `Mark${seed}x${i}v${version}`;
  const lines = int(r, 40, 200);
  const kind = i % 10;
  if (kind < 6) {
    // Path and type name do not depend on the version, so an edit changes the body, not the path.
    const stable = prng((seed * 31 + i) >>> 0);
    const name = `${pick(stable, NOUNS)}${pick(stable, ROLES)}${i}`;
    const folder = pick(stable, ['Services', 'Domain', 'Handlers', 'Infrastructure']);
    return { path: `src/${ns}/${folder}/${name}.cs`, content: csharpFile(r, ns, name, lines, marker) };
  }
  if (kind < 8) {
    const stable = prng((seed * 37 + i) >>> 0);
    const page = `${pick(stable, NOUNS)}${pick(stable, ['List', 'Details', 'Editor', 'Dashboard'])}${i}`;
    return { path: `src/${ns}.Web/Pages/${page}.razor`, content: razorFile(r, page, lines, marker) };
  }
  if (kind === 8) return { path: `src/${ns}.Web/config/appsettings.${i}.json`, content: jsonFile(r, mod, lines, marker) };
  return { path: `docs/${mod.toLowerCase()}/notes-${i}.md`, content: markdownFile(r, mod, lines, marker) };
}

function writeRel(root: string, rel: string, content: string): void {
  const p = path.join(root, ...rel.split('/'));
  mkdirSync(path.dirname(p), { recursive: true });
  writeFileSync(p, content);
}

/**
 * Writes `files` generated files (plus one csproj per module and a README) into `root`, or into a
 * fresh temp folder when root is omitted.
 */
export function generateWorkspace(opts: { files: number; seed: number; root?: string }): GeneratedWorkspace {
  const root = opts.root ?? tmpDir('hci-gen-');
  const paths: string[] = [];
  writeRel(root, 'README.md', `# Contoso platform (generated, seed ${opts.seed})\n\nA generated workspace for hci tests.\n`);
  paths.push('README.md');
  for (const mod of MODULES) {
    const rel = `src/Contoso.${mod}/Contoso.${mod}.csproj`;
    writeRel(root, rel, csprojFile(mod));
    paths.push(rel);
  }
  const probes: GeneratedWorkspace['probes'] = [];
  for (let i = 0; paths.length < opts.files; i++) {
    const f = generateFile(opts.seed, i);
    writeRel(root, f.path, f.content);
    paths.push(f.path);
    if (i % 97 === 3) probes.push({ query: `Mark${opts.seed}x${i}v0`, path: f.path });
  }
  return { root, seed: opts.seed, paths, probes };
}

export interface Mutation {
  edited: GeneratedFile[];
  added: GeneratedFile[];
  deleted: string[];
}

/**
 * Deterministically edits, adds and deletes a few files of a generated workspace. `round` selects
 * which files (and which edited versions); `known` is the current list of workspace-relative paths
 * and is updated in place.
 */
export function mutateWorkspace(
  root: string,
  seed: number,
  round: number,
  known: string[],
  counts: { edit: number; add: number; remove: number } = { edit: 12, add: 6, remove: 4 },
): Mutation {
  const r = prng((seed ^ (round * 2654435761)) >>> 0);
  const result: Mutation = { edited: [], added: [], deleted: [] };
  const indexOf = (p: string) => {
    const m = /(\d+)\.(?:cs|razor|json|md)$/.exec(p);
    return m && !p.endsWith('README.md') ? Number(m[1]) : -1;
  };
  for (let k = 0; k < counts.edit; k++) {
    const p = pick(r, known);
    const i = indexOf(p);
    if (i < 0) continue;
    const f = generateFile(seed, i, round + 1);
    if (f.path !== p) continue;
    writeRel(root, f.path, f.content);
    result.edited.push(f);
  }
  for (let k = 0; k < counts.remove; k++) {
    const p = pick(r, known);
    if (indexOf(p) < 0 || !existsSync(path.join(root, p))) continue;
    rmSync(path.join(root, p));
    known.splice(known.indexOf(p), 1);
    result.deleted.push(p);
  }
  const base = 100_000 + round * 1000;
  for (let k = 0; k < counts.add; k++) {
    const f = generateFile(seed, base + k, 0);
    writeRel(root, f.path, f.content);
    known.push(f.path);
    result.added.push(f);
  }
  // A deleted path may have been edited earlier in this round: keep only what still exists.
  result.edited = result.edited.filter((f) => !result.deleted.includes(f.path));
  return result;
}


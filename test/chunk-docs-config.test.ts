// Golden tests for docs, configs and build files: Markdown heading sections, JSON key paths
// (appsettings nesting, data arrays), YAML pipelines and compose services, TOML tables, MSBuild
// project files, .sln/.slnx solutions and .editorconfig sections — outlines with exact line ranges,
// the chunks cut from them, their search facts, and broken input that degrades instead of failing.
// Ends with a sweep over every sample-workspace file these extractors serve.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { extractorFor } from '../core/chunk/registry.ts';
import { scanJson } from '../core/chunk/lang/json.ts';
import { tomlKey } from '../core/chunk/lang/toml.ts';
import { headingText, slug } from '../core/chunk/lang/markdown.ts';
import { languageOf } from '../core/scan/languages.ts';
import { chunkFile, chunkLines, chunkText, expectWellFormed, findNode, host, outlineLines, sampleDir } from './helpers/chunk-golden.ts';

describe('Markdown', () => {
  it('nested heading sections; front matter and text before the first heading are nodes; fences and comments hide `#`', async () => {
    const r = await chunkFile('fixtures/chunking/markdown/runbook.md');
    expect(outlineLines(r.outline)).toEqual([
      'frontmatter front matter 1-4',
      'preamble (preamble) 6-7',
      'section Runbook 9-46 key=Runbook',
      '  section Deploying 11-30 key=Runbook > Deploying',
      '    section Rolling back 21-30 key=Runbook > Deploying > Rolling back',
      '  section Incidents 31-37 key=Runbook > Incidents',
      '  section Stock counts drift 38-46 key=Runbook > Stock counts drift',
      '    section Deep note under a setext section 43-46 key=Runbook > Stock counts drift > Deep note under a setext section',
      'section Appendix 47-49 key=Appendix',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-8 members front matter, (preamble)',
      '9-30 section Deploying',
      '31-37 section Incidents',
      '38-46 section Stock counts drift',
      '47-49 section Appendix',
    ]);
    expect(r.chunks[1].header).toBe('Runbook\n#runbook\n#deploying'); // the cut-up section's own fact rides on its first piece
  });

  it('docs/architecture.md: heading paths as context; a long section intro is a chunk of its own section', async () => {
    const r = await chunkFile('sample-workspace/docs/architecture.md');
    expect(outlineLines(r.outline)).toEqual([
      'section Architecture 1-141 key=Architecture',
      '  section Overview 3-20 key=Architecture > Overview',
      '  section Layers 21-64 key=Architecture > Layers',
      '    section Domain 23-35 key=Architecture > Layers > Domain',
      '    section Application 36-52 key=Architecture > Layers > Application',
      '    section Web 53-58 key=Architecture > Layers > Web',
      '    section Desktop 59-64 key=Architecture > Layers > Desktop',
      '  section Ordering flow 65-98 key=Architecture > Ordering flow',
      '    section Order status transitions 86-98 key=Architecture > Ordering flow > Order status transitions',
      '  section Pricing rules 99-120 key=Architecture > Pricing rules',
      '  section Desktop back-office 121-133 key=Architecture > Desktop back-office',
      '  section Cross-cutting concerns 134-141 key=Architecture > Cross-cutting concerns',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-20 section Overview',
      '21-35 section Domain',
      '36-52 section Application',
      '53-58 section Web',
      '59-64 section Desktop',
      '65-85 section Ordering flow', // the section's intro before its subsections: the section's own head chunk
      '86-98 section Order status transitions',
      '99-120 section Pricing rules',
      '121-133 section Desktop back-office',
      '134-141 section Cross-cutting concerns',
    ]);
    expect(r.chunks[1].header.split('\n')).toContain('Architecture > Layers');
    expect(r.chunks[5].header.split('\n')).toContain('Architecture > Ordering flow');
  });

  it('setext headings, skipped levels, tilde fences, long sections windowed', async () => {
    const body = Array.from({ length: 150 }, (_, i) => `Line ${i} of a long section.`).join('\n');
    const text = `Title\n=====\n\nIntro.\n\n#### Deep\n\ntext\n\n## Long\n\n${body}\n\n~~~\n## not a heading\n~~~\n`;
    const r = await chunkText('docs/long.md', text);
    expect(outlineLines(r.outline)).toEqual([
      'section Title 1-165 key=Title',
      '  section Deep 6-9 key=Title > Deep',
      '  section Long 10-165 key=Title > Long',
    ]);
    const long = r.chunks.filter((c) => c.symbol?.name === 'Long');
    expect(long.length).toBe(2);
    expect(long.every((c) => c.endLine - c.startLine + 1 <= 110 && c.header.includes('Title'))).toBe(true);
    expect(expectWellFormed(r)).toEqual([]);
  });

  it('a file without headings is one preamble; heading text loses inline markup', async () => {
    const r = await chunkText('notes.md', 'Just some notes.\n\nNo headings here.\n');
    expect(outlineLines(r.outline)).toEqual(['preamble (preamble) 1-3']);
    expect(headingText('**Bold** `code` and [a link](http://x) ##')).toBe('Bold code and a link ##');
    expect(slug('Ordering flow')).toBe('ordering-flow');
  });
});

describe('JSON', () => {
  it('appsettings.json: key paths as names, the .NET colon form as member keys and facts', async () => {
    const r = await chunkFile('sample-workspace/src/Contoso.Shop.Web/appsettings.json');
    expect(outlineLines(r.outline)).toEqual([
      'object Logging 2-9 key=Logging',
      '  object Logging.LogLevel 3-8 key=Logging:LogLevel',
      '    key Logging.LogLevel.Default 4-4 key=Logging:LogLevel:Default',
      '    key Logging.LogLevel.Microsoft.AspNetCore 5-5 key=Logging:LogLevel:Microsoft.AspNetCore',
      '    key Logging.LogLevel.Microsoft.EntityFrameworkCore.Database.Command 6-6 key=Logging:LogLevel:Microsoft.EntityFrameworkCore.Database.Command',
      '    key Logging.LogLevel.Contoso.Shop 7-7 key=Logging:LogLevel:Contoso.Shop',
      'key AllowedHosts 10-10 key=AllowedHosts',
      'object ConnectionStrings 11-14 key=ConnectionStrings',
      '  key ConnectionStrings.OrderingDb 12-12 key=ConnectionStrings:OrderingDb',
      '  key ConnectionStrings.CatalogDb 13-13 key=ConnectionStrings:CatalogDb',
      'object Shop 15-36 key=Shop',
      '  object Shop.Checkout 16-20 key=Shop:Checkout',
      '    key Shop.Checkout.MaxItemsPerOrder 17-17 key=Shop:Checkout:MaxItemsPerOrder',
      '    key Shop.Checkout.Currency 18-18 key=Shop:Checkout:Currency',
      '    key Shop.Checkout.PaymentWindow 19-19 key=Shop:Checkout:PaymentWindow',
      '  object Shop.Pricing 21-35 key=Shop:Pricing',
      '    key Shop.Pricing.BulkDiscountThreshold 22-22 key=Shop:Pricing:BulkDiscountThreshold',
      '    key Shop.Pricing.BulkDiscountPercent 23-23 key=Shop:Pricing:BulkDiscountPercent',
      '    object Shop.Pricing.LoyaltyDiscountPercent 24-27 key=Shop:Pricing:LoyaltyDiscountPercent',
      '      key Shop.Pricing.LoyaltyDiscountPercent.Silver 25-25 key=Shop:Pricing:LoyaltyDiscountPercent:Silver',
      '      key Shop.Pricing.LoyaltyDiscountPercent.Gold 26-26 key=Shop:Pricing:LoyaltyDiscountPercent:Gold',
      '    key Shop.Pricing.MaxDiscountPercent 28-28 key=Shop:Pricing:MaxDiscountPercent',
      '    key Shop.Pricing.HomeCountry 29-29 key=Shop:Pricing:HomeCountry',
      '    key Shop.Pricing.FreeShippingThreshold 30-30 key=Shop:Pricing:FreeShippingThreshold',
      '    key Shop.Pricing.FlatShippingFee 31-31 key=Shop:Pricing:FlatShippingFee',
      '    key Shop.Pricing.InternationalShippingFee 32-32 key=Shop:Pricing:InternationalShippingFee',
      '    key Shop.Pricing.TaxRatePercent 33-33 key=Shop:Pricing:TaxRatePercent',
      '    array Shop.Pricing.ThreeForTwoCategories 34-34 key=Shop:Pricing:ThreeForTwoCategories',
      'object Payments 37-43 key=Payments',
      '  key Payments.Provider 38-38 key=Payments:Provider',
      '  object Payments.RetryPolicy 39-42 key=Payments:RetryPolicy',
      '    key Payments.RetryPolicy.MaxAttempts 40-40 key=Payments:RetryPolicy:MaxAttempts',
      '    key Payments.RetryPolicy.BackoffMilliseconds 41-41 key=Payments:RetryPolicy:BackoffMilliseconds',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-9 object Logging', '10-14 members AllowedHosts, ConnectionStrings', '15-36 object Shop', '37-44 object Payments']);
    expect(r.chunks[1].header.split('\n')).toEqual(['AllowedHosts', 'ConnectionStrings', 'ConnectionStrings:OrderingDb', 'ConnectionStrings:CatalogDb']);
    expect(r.chunks[2].header.split('\n')).toContain('Shop:Checkout:MaxItemsPerOrder');
    expect(r.chunks[2].header.split('\n')).toContain('Shop:Pricing:LoyaltyDiscountPercent:Gold');
  });

  it('seed-data.json: arrays of objects by index', async () => {
    const r = await chunkFile('sample-workspace/tools/seed-data.json');
    const lines = outlineLines(r.outline);
    expect(lines.filter((l) => !l.startsWith('  '))).toEqual(['key $comment 2-2 key=$comment', 'array categories 3-12 key=categories', 'array products 13-29 key=products', 'array customers 30-55 key=customers']);
    expect(lines).toContain('  item products[3] 17-17 key=products:3');
    expect(lines).toContain('  item customers[1] 37-42 key=customers:1');
    expect(lines.length).toBe(4 + 8 + 15 + 4);
    expect(chunkLines(r.chunks)).toEqual(['1-2 key $comment', '3-12 array categories', '13-29 array products', '30-56 array customers']);
  });

  it('JSONC comments and trailing commas; nesting in a top-level array', async () => {
    const r = await chunkText('.vscode/settings.json', '// editor settings\n{\n  /* block */ "files.exclude": { "**/bin": true, },\n  "launch": [\n    { "name": "web", },\n  ],\n}\n');
    expect(outlineLines(r.outline)).toEqual([
      'object files.exclude 3-3 key=files.exclude',
      '  key files.exclude.**/bin 3-3 key=files.exclude:**/bin',
      'array launch 4-6 key=launch',
      '  item launch[0] 5-5 key=launch:0',
    ]);
    const top = await chunkText('data.json', '[\n  { "id": 1 },\n  { "id": 2 }\n]\n');
    expect(outlineLines(top.outline)).toEqual(['item [0] 2-2 key=0', 'item [1] 3-3 key=1']);
  });

  it('invalid JSON gives a partial outline; text that is no JSON at all gives line windows', async () => {
    const broken = '{\n  "Logging": {\n    "LogLevel": {\n      "Default": "Information"\n    }\n  },\n  "ConnectionStrings": {\n    "OrderingDb": "x",\n  "Broken": [1, 2,\n  "After": { "a": 1 }\n';
    const r = await chunkText('appsettings.json', broken);
    expect(r.parseFallback).toBe(false);
    expect(outlineLines(r.outline).slice(0, 4)).toEqual([
      'object Logging 2-6 key=Logging',
      '  object Logging.LogLevel 3-5 key=Logging:LogLevel',
      '    key Logging.LogLevel.Default 4-4 key=Logging:LogLevel:Default',
      'object ConnectionStrings 7-10 key=ConnectionStrings',
    ]);
    expect(expectWellFormed(r)).toEqual([]);
    const none = await chunkText('notes.json', 'not json at all {{{\n');
    expect(none.outline).toBeNull();
    expect(none.chunks.map((c) => c.kind)).toEqual(['window']);
    expect(scanJson('"just a string"')).toBeNull();
  });

  it('a 500 KiB data file extracts with a bounded outline', async () => {
    const products = Array.from({ length: 4200 }, (_, i) => ({ id: i, sku: `SKU-${i}`, name: `Product ${i}`, price: i * 1.5, tags: ['a', 'b'], stock: { onHand: i % 50, reserved: i % 7 } }));
    const text = JSON.stringify({ meta: { version: 3 }, products }, null, 1);
    expect(text.length).toBeGreaterThan(500 * 1024);
    // How long extraction takes is measured by `npm run bench` (bench/latency.ts), not asserted here.
    const input = { path: 'tools/big-seed.json', lang: 'json', lines: text.split('\n'), text };
    const extractJson = (await extractorFor('json'))!;
    expect((await extractJson(input, host))?.nodes.length).toBeGreaterThan(0);
    const r = await chunkText('tools/big-seed.json', text);
    let nodes = 0;
    const count = (ns: NonNullable<typeof r.outline>['nodes']) => ns.forEach((n) => (nodes++, count(n.children)));
    count(r.outline!.nodes);
    expect(nodes).toBeLessThanOrEqual(2000);
    expect(expectWellFormed(r)).toEqual([]);
  });
});

describe('YAML', () => {
  it('GitHub Actions: jobs keyed by id, steps named by name:/uses: with their path as member key', async () => {
    const r = await chunkFile('sample-workspace/.github/workflows/ci.yml');
    const lines = outlineLines(r.outline);
    expect(lines.slice(0, 3)).toEqual(['key name 1-1 key=name', 'object on 3-8 key=on', '  object on.push 4-5 key=on.push']);
    expect(lines.slice(lines.indexOf('object jobs 22-117 key=jobs'))).toEqual([
      'object jobs 22-117 key=jobs',
      '  job build 23-43 key=jobs.build',
      '    step Checkout 26-27 key=jobs.build.steps[0]',
      '    step Setup .NET 29-34 key=jobs.build.steps[1]',
      '    step Restore 36-37 key=jobs.build.steps[2]',
      '    step Build 39-40 key=jobs.build.steps[3]',
      '    step Check formatting 42-43 key=jobs.build.steps[4]',
      '  job test 45-77 key=jobs.test',
      '    step Checkout 49-50 key=jobs.test.steps[0]',
      '    step Setup .NET 52-57 key=jobs.test.steps[1]',
      '    step Restore 59-60 key=jobs.test.steps[2]',
      '    step Test with coverage 62-69 key=jobs.test.steps[3]',
      '    step Upload test results 71-77 key=jobs.test.steps[4]',
      '  job publish-desktop 79-117 key=jobs.publish-desktop',
      '    object jobs.publish-desktop.strategy 82-91 key=jobs.publish-desktop.strategy',
      '      key jobs.publish-desktop.strategy.fail-fast 83-83 key=jobs.publish-desktop.strategy.fail-fast',
      '      object jobs.publish-desktop.strategy.matrix 84-91 key=jobs.publish-desktop.strategy.matrix',
      '        list jobs.publish-desktop.strategy.matrix.include 85-91 key=jobs.publish-desktop.strategy.matrix.include',
      '          item jobs.publish-desktop.strategy.matrix.include[0] 86-87 key=jobs.publish-desktop.strategy.matrix.include[0]',
      '          item jobs.publish-desktop.strategy.matrix.include[1] 88-89 key=jobs.publish-desktop.strategy.matrix.include[1]',
      '          item jobs.publish-desktop.strategy.matrix.include[2] 90-91 key=jobs.publish-desktop.strategy.matrix.include[2]',
      '    step Checkout 94-95 key=jobs.publish-desktop.steps[0]',
      '    step Setup .NET 97-100 key=jobs.publish-desktop.steps[1]',
      '    step Publish back-office app 102-110 key=jobs.publish-desktop.steps[2]',
      '    step Upload artifact 112-117 key=jobs.publish-desktop.steps[3]',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-2 key name',
      '3-9 object on',
      '10-21 members permissions, env, concurrency',
      '22-44 job build',
      '45-51 step Checkout',
      '52-58 step Setup .NET',
      '59-61 step Restore',
      '62-70 step Test with coverage',
      '71-78 step Upload test results',
      '79-91 object jobs.publish-desktop.strategy',
      '92-101 members Checkout, Setup .NET',
      '102-111 step Publish back-office app',
      '112-117 step Upload artifact',
    ]);
    const test = r.chunks.find((c) => c.symbol?.name === 'Test with coverage')!;
    expect(test.symbol!.memberKey).toBe('jobs.test.steps[3]');
    expect(test.header.split('\n')).toEqual(expect.arrayContaining(['jobs.test', 'name=Test with coverage', 'run=dotnet test tests/Contoso.Shop.Tests/Contoso.Shop.Tests.csproj']));
    expect(r.chunks[3].header).toContain('runs-on=ubuntu-latest');
  });

  it('docker-compose: services with their image as a fact', async () => {
    const r = await chunkFile('sample-workspace/docker-compose.yml');
    expect(outlineLines(r.outline)).toEqual([
      'key name 3-3 key=name',
      'object services 5-25 key=services',
      '  service aspire-dashboard 8-15 key=services.aspire-dashboard',
      '    list services.aspire-dashboard.ports 10-12 key=services.aspire-dashboard.ports',
      '    object services.aspire-dashboard.environment 13-14 key=services.aspire-dashboard.environment',
      '      key services.aspire-dashboard.environment.DOTNET_DASHBOARD_UNSECURED_ALLOW_ANONYMOUS 14-14 key=services.aspire-dashboard.environment.DOTNET_DASHBOARD_UNSECURED_ALLOW_ANONYMOUS',
      '  service static-preview 19-25 key=services.static-preview',
      '    list services.static-preview.ports 21-22 key=services.static-preview.ports',
      '    list services.static-preview.volumes 23-24 key=services.static-preview.volumes',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-4 key name', '5-25 object services']);
    expect(r.chunks[1].header).toContain('image=nginx:1.27-alpine');
    expect(findNode(r.outline, (n) => n.name === 'aspire-dashboard')!.facts).toContain('image=mcr.microsoft.com/dotnet/aspire-dashboard:9.0');
  });

  it('Azure Pipelines: stages > jobs > steps named by stage:/job:/displayName:/task:', async () => {
    const r = await chunkFile('fixtures/chunking/yaml/azure-pipelines.yml');
    expect(outlineLines(r.outline)).toEqual([
      'object trigger 2-4 key=trigger',
      '  object trigger.branches 3-4 key=trigger.branches',
      '    list trigger.branches.include 4-4 key=trigger.branches.include',
      'list variables 6-9 key=variables',
      '  item buildConfiguration 7-8 key=variables[0]',
      '  item shop-secrets 9-9 key=variables[1]',
      'list stages 11-42 key=stages',
      '  stage Build 12-27 key=stages[0]',
      '    job BuildJob 15-27 key=stages[0].jobs[0]',
      '      object stages[0].jobs[0].pool 16-17 key=stages[0].jobs[0].pool',
      '        key stages[0].jobs[0].pool.vmImage 17-17 key=stages[0].jobs[0].pool.vmImage',
      '      step UseDotNet@2 19-21 key=stages[0].jobs[0].steps[0]',
      '      step dotnet build 22-23 key=stages[0].jobs[0].steps[1]',
      '      step dotnet test 24-27 key=stages[0].jobs[0].steps[2]',
      '  stage Deploy 29-42 key=stages[1]',
      '    job DeployWeb 33-42 key=stages[1].jobs[0]',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-10 members trigger, variables', '11-28 stage Build', '29-42 stage Deploy']);
    expect(r.chunks[1].header).toContain('displayName=Build and test');
    expect(r.chunks[2].header).toContain('deployment=DeployWeb');
  });

  it('a tab-indentation error falls back to the top-level keys; multi-document files name each document', async () => {
    const r = await chunkFile('fixtures/chunking/yaml/broken-tab.yml');
    expect(r.parseFallback).toBe(false);
    expect(outlineLines(r.outline)).toEqual(['key name 1-1 key=name', 'key on 2-4 key=on', 'key jobs 5-9 key=jobs']);
    const k8s = await chunkText('deploy/web.yaml', 'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: web\n');
    expect(outlineLines(k8s.outline).filter((l) => !l.startsWith('  '))).toEqual(['document Deployment web 1-4 key=[0]', 'document Service web 6-9 key=[1]']);
  });
});

describe('TOML', () => {
  it('tables, arrays of tables by index, root keys; multi-line strings and arrays never open a table', async () => {
    const r = await chunkFile('fixtures/chunking/toml/release-tool.toml');
    expect(outlineLines(r.outline)).toEqual([
      'key title 2-2 key=title',
      'key schema_version 3-3 key=schema_version',
      'table tool.release 5-18 key=tool.release',
      '  key tool.release.channel 6-6 key=tool.release.channel',
      '  key tool.release.notes_template 7-11 key=tool.release.notes_template',
      '  key tool.release.literal 12-14 key=tool.release.literal',
      '  key tool.release.matrix 15-18 key=tool.release.matrix',
      'table tool.release.signing 20-23 key=tool.release.signing',
      '  key tool.release.signing.certificate 22-22 key=tool.release.signing.certificate',
      '  key tool.release.signing."timestamp.server" 23-23 key=tool.release.signing."timestamp.server"',
      'array-table targets[0] 25-27 key=targets[0]',
      '  key targets[0].name 26-26 key=targets[0].name',
      '  key targets[0].path 27-27 key=targets[0].path',
      'array-table targets[1] 29-32 key=targets[1]',
      '  key targets[1].name 30-30 key=targets[1].name',
      '  key targets[1].path 31-31 key=targets[1].path',
      '  key targets[1].inline 32-32 key=targets[1].inline',
      'table dependencies 35-36 key=dependencies',
      '  key dependencies.serde 36-36 key=dependencies.serde',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-4 members title, schema_version', '5-19 table tool.release', '20-36 members tool.release.signing, targets[0], targets[1], dependencies']);
    expect(r.chunks[1].header.split('\n')).toEqual(['tool.release.channel', 'tool.release.notes_template', 'tool.release.literal', 'tool.release.matrix']);
    expect(tomlKey(' a."b.c" . d ')).toEqual(['a', 'b.c', 'd']);
  });

  it('tools/release.toml (sample workspace)', async () => {
    const r = await chunkFile('sample-workspace/tools/release.toml');
    expect(outlineLines(r.outline).filter((l) => !l.startsWith('  '))).toEqual([
      'table release 4-8 key=release',
      'table release.branches 10-13 key=release.branches',
      'table web 15-19 key=web',
      'table desktop 21-26 key=desktop',
      'table changelog 28-35 key=changelog',
    ]);
    expect(outlineLines(r.outline)).toContain('  key desktop.runtime_identifiers 25-25 key=desktop.runtime_identifiers');
    expect(outlineLines(r.outline)).toContain('  key changelog.sections 29-34 key=changelog.sections');
    expect(chunkLines(r.chunks)).toEqual(['1-9 table release', '10-14 table release.branches', '15-20 table web', '21-27 table desktop', '28-35 table changelog']);
  });
});

describe('MSBuild', () => {
  it('a .csproj: property groups and item groups with their properties, references and packages as facts', async () => {
    const r = await chunkFile('sample-workspace/src/Contoso.Shop.Desktop/Contoso.Shop.Desktop.csproj');
    expect(outlineLines(r.outline)).toEqual([
      'project Contoso.Shop.Desktop.csproj 1-27',
      '  properties PropertyGroup 3-9',
      '  items ItemGroup ProjectReference 11-13',
      '  items ItemGroup PackageReference 15-25',
    ]);
    expect(r.outline!.fileContext).toEqual(['Project Sdk=Microsoft.NET.Sdk']);
    expect(chunkLines(r.chunks)).toEqual(['1-27 project Contoso.Shop.Desktop.csproj']);
    const props = findNode(r.outline, (n) => n.kind === 'properties')!;
    expect(props.facts).toEqual(['OutputType=WinExe', 'RootNamespace=Contoso.Shop.Desktop', 'AssemblyName=Contoso.Shop.Desktop', 'BuiltInComInteropSupport=true', 'AvaloniaUseCompiledBindingsByDefault=true']);
    expect(findNode(r.outline, (n) => n.name === 'ItemGroup ProjectReference')!.facts).toEqual(['ProjectReference=..\\Contoso.Shop.Application\\Contoso.Shop.Application.csproj']);
    expect(r.chunks[0].header).toContain('PackageReference=Avalonia.Controls.DataGrid');
  });

  it('Directory.Build.props and Directory.Packages.props: TargetFramework and package versions as facts', async () => {
    const build = await chunkFile('sample-workspace/Directory.Build.props');
    expect(findNode(build.outline, (n) => n.kind === 'properties')!.facts).toContain('TargetFramework=net9.0');
    expect(outlineLines(build.outline)).toEqual([
      'project Directory.Build.props 1-25',
      '  properties PropertyGroup 2-13',
      '  properties PropertyGroup Package metadata 15-20',
      '  items ItemGroup InternalsVisibleTo 22-24',
    ]);
    const packages = await chunkFile('sample-workspace/Directory.Packages.props');
    expect(outlineLines(packages.outline)).toEqual([
      'project Directory.Packages.props 1-41',
      '  properties PropertyGroup 2-7',
      '  items ItemGroup PackageVersion (Runtime) 9-20',
      '  items ItemGroup PackageVersion (Desktop) 22-30',
      '  items ItemGroup PackageVersion (Testing) 32-40',
    ]);
    expect(chunkLines(packages.chunks)).toEqual(['1-8 properties PropertyGroup', '9-21 items ItemGroup PackageVersion (Runtime)', '22-31 items ItemGroup PackageVersion (Desktop)', '32-41 items ItemGroup PackageVersion (Testing)']);
    expect(packages.chunks[2].header.split('\n')).toContain('PackageVersion=Avalonia.Controls.DataGrid@$(AvaloniaVersion)');
    expect(packages.chunks[3].header.split('\n')).toContain('PackageVersion=xunit@2.9.2');
  });

  it('a .targets file: imports, Choose/When, targets with their tasks, package versions as child elements', async () => {
    const r = await chunkFile('fixtures/chunking/msbuild/Contoso.Shop.Build.targets');
    expect(outlineLines(r.outline)).toEqual([
      'project Contoso.Shop.Build.targets 1-33',
      "  import Import $(MSBuildThisFileDirectory)Versioning.props 2-2",
      '  properties PropertyGroup Bundling 4-7',
      '  choose Choose 9-20',
      "    when When '$(RuntimeIdentifier)' == 'win-x64' 10-14",
      '      properties PropertyGroup 11-13',
      '    when Otherwise 15-19',
      '      items ItemGroup None 16-18',
      '  target Target BundleStaticAssets 22-25',
      '  items ItemGroup PackageReference 27-32',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-8 members Import $(MSBuildThisFileDirectory)Versioning.props, PropertyGroup Bundling',
      '9-21 choose Choose',
      '22-26 target Target BundleStaticAssets',
      '27-33 items ItemGroup PackageReference',
    ]);
    expect(findNode(r.outline, (n) => n.kind === 'target')!.facts).toEqual(['BeforeTargets=Build', "Condition='$(SkipBundling)' != 'true'", 'task Message', 'Exec=npm run bundle -- --out "$(BundleOutputDir)"']);
    expect(findNode(r.outline, (n) => n.name === 'ItemGroup PackageReference')!.facts).toEqual(['PackageReference=Microsoft.SourceLink.GitHub@8.0.0', 'PackageReference Update=Newtonsoft.Json@13.0.3']);
  });
});

describe('solutions', () => {
  it('.sln: projects and solution folders, the Global block with its sections, nesting by name', async () => {
    const r = await chunkFile('fixtures/chunking/sln/Contoso.Shop.sln');
    expect(outlineLines(r.outline)).toEqual([
      'folder src 5-6',
      'project Contoso.Shop.Domain 7-8',
      'project Contoso.Shop.Web 9-13',
      'folder Solution Items 14-19',
      'global Global 20-45',
      '  section SolutionConfigurationPlatforms 21-24',
      '  section ProjectConfigurationPlatforms 25-34',
      '  section SolutionProperties 35-37',
      '  section NestedProjects 38-41',
      '  section ExtensibilityGlobals 42-44',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-6 folder src', '7-13 members Contoso.Shop.Domain, Contoso.Shop.Web', '14-19 folder Solution Items', '20-45 global Global']);
    expect(findNode(r.outline, (n) => n.name === 'Contoso.Shop.Web')!.facts).toEqual(['Path=src\\Contoso.Shop.Web\\Contoso.Shop.Web.csproj', 'ProjectGuid={6B7C8D9E-0F1A-4B2C-9D3E-4F5A6B7C8D9E}', 'DependsOn=Contoso.Shop.Domain']);
    expect(findNode(r.outline, (n) => n.name === 'Solution Items')!.facts).toContain('File=Directory.Build.props');
    expect(r.chunks[3].header.split('\n')).toEqual(['Solution Contoso.Shop.sln', 'Contoso.Shop.Domain in src', 'Contoso.Shop.Web in src']);
  });

  it('.slnx: folders holding projects, files as facts', async () => {
    const r = await chunkFile('sample-workspace/Contoso.Shop.slnx');
    expect(outlineLines(r.outline)).toEqual([
      'solution Contoso.Shop.slnx 1-18',
      '  folder /Solution Items/ 2-8',
      '  folder /src/ 9-14',
      '    project Contoso.Shop.Domain 10-10',
      '    project Contoso.Shop.Application 11-11',
      '    project Contoso.Shop.Web 12-12',
      '    project Contoso.Shop.Desktop 13-13',
      '  folder /tests/ 15-17',
      '    project Contoso.Shop.Tests 16-16',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-18 solution Contoso.Shop.slnx']);
    expect(r.chunks[0].header.split('\n')).toContain('Path=src/Contoso.Shop.Web/Contoso.Shop.Web.csproj');
    expect(findNode(r.outline, (n) => n.name === '/Solution Items/')!.facts).toContain('File=global.json');
  });
});

describe('.editorconfig', () => {
  it('preamble keys and [glob] sections with their key=value facts', async () => {
    const r = await chunkFile('sample-workspace/.editorconfig');
    expect(outlineLines(r.outline)).toEqual([
      'key root 1-1 key=root',
      'section * 3-9 key=[*]',
      'section *.{csproj,props,targets,slnx,axaml,xml} 11-12 key=[*.{csproj,props,targets,slnx,axaml,xml}]',
      'section *.{json,yml,yaml,razor,cshtml,css,js,html,toml} 14-15 key=[*.{json,yml,yaml,razor,cshtml,css,js,html,toml}]',
      'section *.md 17-18 key=[*.md]',
      'section *.cs 20-54 key=[*.cs]',
      'section tests/**.cs 56-58 key=[tests/**.cs]',
    ]);
    expect(chunkLines(r.chunks)).toEqual([
      '1-2 key root',
      '3-10 section *',
      '11-19 members *.{csproj,props,targets,slnx,axaml,xml}, *.{json,yml,yaml,razor,cshtml,css,js,html,toml}, *.md',
      '20-55 section *.cs',
      '56-58 section tests/**.cs',
    ]);
    expect(r.chunks[3].header.split('\n')).toContain('csharp_style_namespace_declarations=file_scoped:suggestion');
    expect(r.chunks[4].header).toBe('dotnet_diagnostic.CA1707.severity=none');
  });
});

describe('every sample-workspace file these extractors serve', () => {
  const mine = new Set(['axaml', 'xaml', 'markdown', 'msbuild', 'sln', 'slnx', 'json', 'yaml', 'toml', 'editorconfig', 'html', 'css', 'scss', 'javascript', 'typescript']);
  const walk = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === '.hci' ? [] : walk(p);
      return [path.relative(sampleDir, p).split(path.sep).join('/')];
    });

  it('has an outline, never falls back, keeps ranges inside the file and chunks cover every line', async () => {
    const files = walk(sampleDir).filter((f) => mine.has(languageOf(f)));
    const langs = new Set(files.map(languageOf));
    expect([...langs].sort()).toEqual(['axaml', 'css', 'editorconfig', 'html', 'javascript', 'json', 'markdown', 'msbuild', 'slnx', 'toml', 'yaml']);
    for (const lang of mine) expect(await extractorFor(lang), lang).toBeDefined();
    for (const f of files) {
      const r = await chunkFile(`sample-workspace/${f}`);
      expect(r.parseFallback, f).toBe(false);
      expect(r.outline?.nodes.length, f).toBeGreaterThan(0);
      expect(r.chunks.every((c) => c.kind !== 'window'), f).toBe(true);
      expect(expectWellFormed(r), f).toEqual([]);
    }
  });
});

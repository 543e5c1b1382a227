// C# outline extractor: golden outlines and chunks for realistic fixtures, member keys (overloads,
// nesting, generics, operators, top-level statements, partial classes), search facts, error
// recovery, key stability under line drift, speed, and a sweep over the sample workspace's C# and Razor.
// @lane unit
import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { flattenOutline, type FileOutline, type OutlineNode } from '../core/chunk/outline.ts';
import type { ChunkLimits, ChunkResult } from '../core/chunk/types.ts';
import { extractCSharp, outlineFromCSharpTree } from '../core/chunk/lang/csharp.ts';
import { ATTEMPT_MIN_SHARE, oneBranchView, parseCSharp, repairBudget, rewriteKnown } from '../core/chunk/lang/csharp-repair.ts';
import { normalizeSpelling, observablePropertyName, relayCommandName, combineRoute, minimalApiRoutes } from '../core/chunk/lang/csharp-keys.ts';
import { splitLines } from '../core/scan/content.ts';
import { languageOf } from '../core/scan/languages.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { openWorkspace } from '../runtimes/node/index.ts';
import { withTmpWorkspace } from './helpers/tmp-workspace.ts';
import { byKey, expectGolden, nodesOf, renderGolden } from './helpers/chunk-golden.ts';

const LIMITS: ChunkLimits = { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 };
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/chunking/csharp');
const SAMPLE = path.resolve(import.meta.dirname, 'sample-workspace');

const ts = new TreeSitterHost(createNodeGrammarSource());

/** A host that counts its parses (first parses, views and repair attempts alike). */
class CountingHost extends TreeSitterHost {
  parses = 0;
  override async parse(...args: Parameters<TreeSitterHost['parse']>) {
    this.parses++;
    return super.parse(...args);
  }
}
const chunker = new Chunker(ts);

function input(p: string, text: string) {
  const lines = splitLines(text);
  return { path: p, lang: languageOf(p), lines, text: lines.join('\n') };
}

async function chunkText(p: string, text: string): Promise<ChunkResult> {
  return chunker.chunk(input(p, text), LIMITS);
}

async function chunkFixture(name: string): Promise<ChunkResult> {
  return chunkText(`src/Contoso.Billing/${name}`, fs.readFileSync(path.join(FIXTURES, name), 'utf8'));
}


/** The structural guarantees every C#/Razor file must meet (`partialParts`: a file that repeats keys across partial declarations). */
function checkInvariants(rel: string, lines: readonly string[], res: ChunkResult, partialParts = false): void {
  expect(res.parseFallback, `${rel}: parse fallback`).toBe(false);
  expect(res.outline, `${rel}: outline`).not.toBeNull();
  const covered = new Uint8Array(lines.length + 1);
  for (const c of res.chunks) {
    expect(c.startLine, rel).toBeGreaterThanOrEqual(1);
    expect(c.endLine, rel).toBeLessThanOrEqual(lines.length);
    expect(c.endLine - c.startLine + 1, rel).toBeLessThanOrEqual(LIMITS.chunkLines);
    for (let i = c.startLine; i <= c.endLine; i++) covered[i] = 1;
  }
  for (let i = 1; i <= lines.length; i++) expect(covered[i], `${rel}: line ${i} is in no chunk`).toBe(1);
  const flat = flattenOutline(res.outline!);
  const keys = new Map<string, number>();
  for (const { node, parent } of flat) {
    expect(node.startLine, `${rel}: ${node.name}`).toBeGreaterThanOrEqual(1);
    expect(node.endLine, `${rel}: ${node.name}`).toBeLessThanOrEqual(lines.length);
    expect(node.startLine, `${rel}: ${node.name}`).toBeLessThanOrEqual(node.endLine);
    if (parent >= 0) {
      const p = flat[parent].node;
      expect(node.startLine >= p.startLine && node.endLine <= p.endLine, `${rel}: ${node.name} outside ${p.name}`).toBe(true);
    }
    if (node.memberKey) keys.set(node.memberKey, (keys.get(node.memberKey) ?? 0) + 1);
  }
  // Keys are unique per file: overloads differ by their parameter types.
  const dupes = [...keys].filter(([, n]) => n > 1).map(([k]) => k);
  if (!partialParts) expect(dupes, `${rel}: duplicate member keys`).toEqual([]);
}

beforeAll(async () => {
  await ts.parser('c_sharp'); // grammar load is not part of any timing below
  await ts.parser('html');
});

describe('C# golden outlines and chunks', () => {
  const fixtures = fs.readdirSync(FIXTURES).filter((f) => f.endsWith('.cs'));

  it('has the fixtures', () => {
    expect(fixtures.sort()).toEqual(['Broken.cs', 'InvoiceLedger.cs', 'Modern.cs', 'Money.cs', 'OrdersController.Export.cs', 'OrdersController.cs', 'OrdersViewModel.cs', 'Program.cs', 'StatementRenderer.cs']);
  });

  it.each(fixtures)('%s matches its golden outline and chunks', async (name) => {
    const res = await chunkFixture(name);
    expectGolden(path.join(FIXTURES, name), renderGolden(res));
    if (name !== 'Broken.cs') checkInvariants(name, splitLines(fs.readFileSync(path.join(FIXTURES, name), 'utf8')), res, name === 'Modern.cs');
  });
});

describe('C# member keys', () => {
  it('distinguishes overloads by parameter types as written, keeping modifiers and nullability', async () => {
    const { outline } = await chunkFixture('InvoiceLedger.cs');
    const adds = nodesOf(outline).filter((n) => n.name === 'Add').map((n) => [n.memberKey, n.startLine, n.endLine]);
    expect(adds).toEqual([
      ['Contoso.Billing.InvoiceLedger.Add(Invoice)', 71, 72],
      ['Contoso.Billing.InvoiceLedger.Add(Invoice,bool)', 74, 88],
      ['Contoso.Billing.InvoiceLedger.Add(params Invoice[])', 90, 93],
    ]);
    expect(byKey(outline, 'Contoso.Billing.InvoiceLedger.TryFind(string,out Invoice?,ref int,in DateOnly)').kind).toBe('method');
    expect(byKey(outline, 'Contoso.Billing.Reports.LedgerExtensions.Outstanding(this InvoiceLedger,InvoiceState)').startLine).toBe(180);
  });

  it('spells constructors, destructors, indexers, operators, conversions, events and field groups', async () => {
    const { outline } = await chunkFixture('InvoiceLedger.cs');
    const k = (key: string) => byKey(outline, key);
    expect(k('Contoso.Billing.InvoiceLedger.#cctor()').kind).toBe('constructor');
    expect(k('Contoso.Billing.InvoiceLedger.#ctor(string)').startLine).toBe(43);
    expect(k('Contoso.Billing.InvoiceLedger.#ctor(string,Money)').startLine).toBe(47);
    expect(k('Contoso.Billing.InvoiceLedger.~InvoiceLedger()').kind).toBe('destructor');
    expect(k('Contoso.Billing.InvoiceLedger.this[string]')).toMatchObject({ kind: 'indexer', startLine: 63, endLine: 65 });
    expect(k('Contoso.Billing.InvoiceLedger.this[int,int]').kind).toBe('indexer');
    expect(k('Contoso.Billing.InvoiceLedger.operator +(InvoiceLedger,Invoice)').kind).toBe('operator');
    expect(k('Contoso.Billing.InvoiceLedger.operator ==(InvoiceLedger?,InvoiceLedger?)').kind).toBe('operator');
    expect(k('Contoso.Billing.InvoiceLedger.implicit operator Money(InvoiceLedger)').kind).toBe('conversion');
    expect(k('Contoso.Billing.InvoiceLedger.explicit operator string(InvoiceLedger)').kind).toBe('conversion');
    expect(k('Contoso.Billing.InvoiceLedger.Closed')).toMatchObject({ kind: 'event', startLine: 33, endLine: 37 });
    expect(k('Contoso.Billing.InvoiceLedger.InvoiceVoided').kind).toBe('event');
    expect(k('Contoso.Billing.InvoiceLedger._archived').kind).toBe('field');
    const group = nodesOf(outline).find((n) => n.kind === 'field_group')!;
    expect(group).toMatchObject({ name: '_invoices, _archived', startLine: 28, endLine: 28 });
    expect(group.children.map((c) => c.memberKey)).toEqual(['Contoso.Billing.InvoiceLedger._invoices', 'Contoso.Billing.InvoiceLedger._archived']);
    // Explicit interface implementations do not collide with the public member.
    expect(k('Contoso.Billing.InvoiceLedger.IEnumerable.GetEnumerator()').startLine).toBe(127);
    expect(k('Contoso.Billing.InvoiceLedger.GetEnumerator()').startLine).toBe(125);
  });

  it('joins nested types with + and keeps generic type parameters', async () => {
    const { outline } = await chunkFixture('InvoiceLedger.cs');
    expect(byKey(outline, 'Contoso.Billing.InvoiceLedger+Page+Cursor.Next(int)').startLine).toBe(154);
    expect(byKey(outline, 'Contoso.Billing.InvoiceLedger+Page').kind).toBe('struct');
    expect(byKey(outline, 'Contoso.Billing.InvoiceLedger+Page.#ctor(int,IReadOnlyList<Invoice>)').kind).toBe('constructor');
    expect(byKey(outline, 'Contoso.Billing.IInvoiceStore<TKey>').kind).toBe('interface');
    expect(byKey(outline, 'Contoso.Billing.InMemoryInvoiceStore<TKey>.Find(TKey)').kind).toBe('method');
    expect(byKey(outline, 'Contoso.Billing.InvoiceLedger.Project<TResult>(Func<Invoice,TResult>,IComparer<TResult>?)').kind).toBe('method');
    expect(byKey(outline, 'Contoso.Billing.InvoiceChangedHandler').kind).toBe('delegate');
    expect(byKey(outline, 'Contoso.Billing.InvoiceState.Issued')).toMatchObject({ kind: 'enum_member', startLine: 14, endLine: 15 });
  });

  it('includes leading doc comments and attributes in a member and puts them in the type header', async () => {
    const { outline, chunks } = await chunkFixture('InvoiceLedger.cs');
    const ledger = byKey(outline, 'Contoso.Billing.InvoiceLedger');
    expect(ledger).toMatchObject({ kind: 'class', startLine: 20, endLine: 157, role: 'container' });
    expect(ledger.context).toBe('[Serializable] [DebuggerDisplay("{AccountId} ({Count} invoices)")] public sealed partial class InvoiceLedger : IEnumerable<Invoice>, IDisposable');
    const add = chunks.find((c) => c.symbol?.memberKey === 'Contoso.Billing.InvoiceLedger.Add(Invoice,bool)')!;
    expect(add.header.split('\n')).toEqual(['using Contoso.Billing.Abstractions;', 'using Contoso.Shop.Domain.ValueObjects;', 'namespace Contoso.Billing', ledger.context]);
    // Two block namespaces: each keeps its own namespace line.
    expect(outline!.nodes.map((n) => [n.kind, n.name, n.context])).toEqual([
      ['namespace', 'Contoso.Billing', 'namespace Contoso.Billing'],
      ['namespace', 'Contoso.Billing.Reports', 'namespace Contoso.Billing.Reports'],
    ]);
  });

  it('gives a file-scoped namespace the rest of the file and keeps records and record structs apart', async () => {
    const { outline, chunks } = await chunkFixture('Money.cs');
    expect(outline!.nodes).toHaveLength(1);
    expect(outline!.nodes[0]).toMatchObject({ kind: 'namespace', name: 'Contoso.Billing.Values', startLine: 4, endLine: 95 });
    expect(outline!.fileContext).toEqual(['namespace Contoso.Billing.Values;']);
    expect(byKey(outline, 'Contoso.Billing.Values.CurrencyCode').kind).toBe('record_struct');
    expect(byKey(outline, 'Contoso.Billing.Values.TaxLine')).toMatchObject({ kind: 'record', startLine: 16, endLine: 16, children: [] });
    expect(byKey(outline, 'Contoso.Billing.Values.PercentAdjustment').context).toBe('public sealed record PercentAdjustment(string Reason, decimal Percent) : Adjustment(Reason)');
    expect(byKey(outline, 'Contoso.Billing.Values.PercentAdjustment.operator checked -(PercentAdjustment)').kind).toBe('operator');
    expect(byKey(outline, 'Contoso.Billing.Values.Money.operator *(Money,int)').startLine).toBe(62);
    expect(byKey(outline, 'Contoso.Billing.Values.Money.operator *(Money,decimal)').startLine).toBe(64);
    // A small record with a body is one chunk; the big struct is cut into its members.
    expect(chunks.find((c) => c.symbol?.memberKey === 'Contoso.Billing.Values.PercentAdjustment')).toMatchObject({ startLine: 23, endLine: 31, kind: 'record' });
    expect(chunks.filter((c) => c.symbol?.memberKey?.startsWith('Contoso.Billing.Values.Money.')).length).toBeGreaterThan(5);
  });

  it('gives both parts of a partial class the same type key', async () => {
    const a = await chunkFixture('OrdersController.cs');
    const b = await chunkFixture('OrdersController.Export.cs');
    const key = 'Contoso.Shop.Api.Controllers.OrdersController';
    expect(byKey(a.outline, key).kind).toBe('class');
    expect(byKey(b.outline, key).kind).toBe('class');
    expect(byKey(a.outline, `${key}.Describe(OrderDto)`).startLine).toBe(40);
    expect(byKey(b.outline, `${key}.Describe(OrderDto,bool)`).startLine).toBe(21);
  });

  it('keys top-level statements and their local functions under <top-level>', async () => {
    const { outline } = await chunkFixture('Program.cs');
    const top = outline!.nodes[0];
    expect(top).toMatchObject({ kind: 'top_level', name: '<top-level>', memberKey: '<top-level>', startLine: 4, endLine: 37 });
    expect(top.children.map((c) => [c.kind, c.memberKey, c.startLine, c.endLine])).toEqual([
      ['statements', '<top-level>.<statements>', 4, 14],
      ['local_function', '<top-level>.AddLine(string,CartLineRequest,ICartStore)', 16, 23],
      ['statements', '<top-level>.<statements>#2', 25, 26],
      ['local_function', '<top-level>.SeedAsync(WebApplication,int)', 28, 35],
      ['local_function', '<top-level>.Pick<T>(IReadOnlyList<T>,ref int)', 37, 37],
    ]);
    expect(byKey(outline, 'CartLineRequest').kind).toBe('record');
    expect(byKey(outline, 'Program').kind).toBe('class');
  });
});

describe('C# search facts', () => {
  it('turns controller and action route attributes into routes', async () => {
    const { outline } = await chunkFixture('OrdersController.cs');
    const facts = (name: string) => nodesOf(outline).find((n) => n.name === name)?.facts;
    expect(facts('Get')).toEqual(['route GET /api/Orders/{id:int}']);
    expect(facts('List')).toEqual(['route GET /api/Orders']);
    expect(facts('Upsert')).toEqual(['route POST /api/Orders', 'route PUT /api/Orders/{id:int}']);
    expect(facts('Delete')).toEqual(['route DELETE /api/admin/orders/{id:int}']);
    expect(facts('Ping')).toEqual(['route /api/Orders/Ping']);
    expect(facts('Describe')).toBeUndefined();
  });

  it('finds minimal-API endpoints with their MapGroup prefix', async () => {
    const { outline } = await chunkFixture('Program.cs');
    expect(byKey(outline, '<top-level>.<statements>').facts).toEqual(['route GET /api/catalog', 'route GET /api/catalog/{id:int}', 'route POST /api/cart/{cartId}/lines', 'route /healthz']);
    expect(minimalApiRoutes('var g = app.MapGroup("/v1/"); g.MapDelete("items/{id}", Handler);')).toEqual(['route DELETE /v1/items/{id}']);
  });

  it('names what CommunityToolkit.Mvvm generates and keys it to the source member', async () => {
    const { outline, chunks } = await chunkFixture('OrdersViewModel.cs');
    const vm = 'Contoso.Shop.Desktop.ViewModels.OrdersViewModel';
    expect(byKey(outline, `${vm}.SelectedOrder`)).toMatchObject({ kind: 'generated_property', startLine: 9, endLine: 9 }); // on its attribute
    expect(byKey(outline, `${vm}.SearchText`).kind).toBe('generated_property');
    expect(byKey(outline, `${vm}.StatusFilter`).kind).toBe('generated_property');
    expect(byKey(outline, `${vm}.RefreshOrdersCommand`)).toMatchObject({ kind: 'generated_command', startLine: 20, endLine: 20 });
    expect(byKey(outline, `${vm}.RefreshOrdersAsync(CancellationToken)`)).toMatchObject({ kind: 'method', startLine: 20, endLine: 25 });
    expect(byKey(outline, `${vm}.ExportCancelCommand`).kind).toBe('generated_command');
    expect(byKey(outline, `${vm}.ClearFilterCommand`).kind).toBe('generated_command');
    // The 32-line file is one chunk whose header carries every generated name.
    expect(chunks).toHaveLength(1);
    expect(chunks[0].header).toContain('generated command RefreshOrdersCommand');
    expect(chunks[0].header).toContain('generated property SelectedOrder');
  });

  it('follows the generators\' naming rules', () => {
    expect(relayCommandName('RefreshOrdersAsync')).toBe('RefreshOrdersCommand');
    expect(relayCommandName('OnSave')).toBe('SaveCommand');
    expect(relayCommandName('Online')).toBe('OnlineCommand');
    expect(relayCommandName('Async')).toBe('AsyncCommand');
    expect(observablePropertyName('_selectedOrder')).toBe('SelectedOrder');
    expect(observablePropertyName('m_name')).toBe('Name');
    expect(observablePropertyName('name')).toBe('Name');
    expect(observablePropertyName('Name')).toBeNull();
    expect(combineRoute('api/[controller]', '~/health', 'HealthController', 'Get')).toBe('/health');
    expect(normalizeSpelling('Dictionary< string ,  List<int> > /* c */ [ ]')).toBe('Dictionary<string,List<int>>[]');
    expect(normalizeSpelling('scoped  ref\n Span<byte>')).toBe('scoped ref Span<byte>');
  });
});

describe('C# chunks', () => {
  it('splits a member longer than chunk_lines into windows that keep the header and symbol', async () => {
    const { chunks, outline } = await chunkFixture('StatementRenderer.cs');
    const key = 'Contoso.Billing.Reports.StatementRenderer.RenderTaxSection(string,Money)';
    expect(byKey(outline, key)).toMatchObject({ startLine: 10, endLine: 129 });
    const windows = chunks.filter((c) => c.symbol?.memberKey === key);
    expect(windows.map((c) => [c.startLine, c.endLine])).toEqual([[10, 119], [105, 130]]);
    for (const w of windows) {
      expect(w.kind).toBe('method');
      expect(w.header).toBe('namespace Contoso.Billing.Reports;\npublic sealed class StatementRenderer');
    }
  });

  it('keeps member keys when lines are inserted above and shifts the ranges', async () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'InvoiceLedger.cs'), 'utf8');
    const before = await chunkText('Ledger.cs', text);
    const shifted = text.replace('namespace Contoso.Billing\n{', 'namespace Contoso.Billing\n{\n    // one\n\n    // two\n');
    const after = await chunkText('Ledger.cs', shifted);
    const ranges = (r: ChunkResult) => new Map(nodesOf(r.outline).filter((n) => n.memberKey).map((n) => [n.memberKey!, n.startLine]));
    const a = ranges(before);
    const b = ranges(after);
    expect([...b.keys()]).toEqual([...a.keys()]);
    for (const [key, line] of a) {
      if (key === 'Contoso.Billing') continue; // the namespace itself starts above the insertion
      expect(b.get(key), key).toBe(line + 4);
    }
  });
});

describe('C# error tolerance and speed', () => {
  it('recovers a partial outline from broken code, keeping the keys it will have once fixed', async () => {
    const res = await chunkFixture('Broken.cs');
    expect(res.parseFallback).toBe(false);
    expect(byKey(res.outline, 'Contoso.Shop.Legacy.ImportJob').kind).toBe('class');
    expect(byKey(res.outline, 'Contoso.Shop.Legacy.ImportJob.#ctor(string)')).toMatchObject({ startLine: 7, endLine: 10 });
    expect(byKey(res.outline, 'Contoso.Shop.Legacy.ImportJob.Run()').startLine).toBe(12);
  });

  it('never throws on garbage, unbalanced or empty input', async () => {
    const cases = ['', '}}}}', '{{{{ class', 'namespace ;', 'class { void ( }', '\u0000\u0001binary\uFFFD', 'public class A { public void M() { var s = "unterminated', '#if X\nclass A {\n#else\nclass B {\n#endif\n}'];
    for (const text of cases) {
      const lines = splitLines(text);
      const outline = await extractCSharp({ path: 'x.cs', lang: 'csharp', lines, text: lines.join('\n') }, ts);
      for (const n of nodesOf(outline)) {
        expect(n.startLine).toBeGreaterThanOrEqual(1);
        expect(n.endLine).toBeLessThanOrEqual(Math.max(1, lines.length));
      }
      const res = await chunkText('x.cs', text);
      expect(res.parseFallback, JSON.stringify(text)).toBe(false);
    }
  });

  it('extracts a 6k-line file: a full outline and well-formed chunks', async () => {
    const parts = ['using Contoso.Shop.Domain;', '', 'namespace Contoso.Generated;', ''];
    for (let t = 0; parts.length < 6000; t++) {
      parts.push(`/// <summary>Generated type ${t}.</summary>`, `public sealed partial class Service${t} : IService`, '{', `    private readonly int _seed = ${t}, _copy;`, '');
      for (let m = 0; m < 6; m++) {
        parts.push(`    [HttpGet("items/{id}/${m}")]`, `    public async Task<int> Handle${m}Async(int id, string? filter, CancellationToken ct = default)`, '    {', `        var total = id + ${m};`, '        if (filter is { Length: > 0 }) total += filter.Length;', '        await Task.Yield();', '        return total;', '    }', '');
      }
      parts.push(`    public int this[int i] => i + _seed;`, '}', '');
    }
    const lines = parts.slice(0, 6000);
    const text = lines.join('\n');
    // How long this takes is measured by `npm run bench` (bench/latency.ts), not asserted here.
    const outline: FileOutline | null = await extractCSharp({ path: 'Big.cs', lang: 'csharp', lines, text }, ts);
    const res = await chunker.chunk({ path: 'Big.cs', lang: 'csharp', lines, text }, LIMITS);
    expect(nodesOf(outline).length).toBeGreaterThan(500);
    checkInvariants('Big.cs', lines, res);
  });
});

describe('C# syntax newer than the grammar (C# 12-14)', () => {
  it('outlines every member of the C# 12/13/14 fixture, keyed as written', async () => {
    const res = await chunkFixture('Modern.cs');
    const ns = 'Contoso.Billing.Modern';
    const units = nodesOf(res.outline).filter((n) => n.role === 'unit').map((n) => `${n.kind} ${n.memberKey}`);
    expect(units).toEqual([
      ...['_entries', '_seeds', '_gate', '_changed', '_closeButton'].map((f) => `field ${ns}.LedgerBook.${f}`),
      `property ${ns}.LedgerBook.Owner`,
      `property ${ns}.LedgerBook.Opening`,
      `property ${ns}.LedgerBook.Title`,
      `method ${ns}.LedgerBook.Attach(Button?)`,
      `method ${ns}.LedgerBook.Merge(params ReadOnlySpan<decimal>)`,
      `method ${ns}.LedgerBook.Count(params IEnumerable<int>)`,
      `method ${ns}.LedgerBook.TryRead(string)`,
      `method ${ns}.LedgerBook.Escape()`,
      `method ${ns}.LedgerBook.Append(decimal)`,
      `method ${ns}.LedgerBook.OnClose(object?,EventArgs)`,
      `method ${ns}.LedgerBook.Dispose()`,
      `field ${ns}.SpanCursor.Position`,
      `method ${ns}.SpanCursor.Dispose()`,
      `property ${ns}.Pool<T>.Rented`,
      `method ${ns}.Pool<T>.Return(scoped T)`,
      `constructor ${ns}.Statement.#ctor(string)`,
      `property ${ns}.Statement.Id`,
      `indexer ${ns}.Statement.this[int]`,
      `event ${ns}.Statement.Printed`,
      `field ${ns}.Statement._id`,
      `constructor ${ns}.Statement.#ctor(string)`,
      `property ${ns}.Statement.Id`,
      `indexer ${ns}.Statement.this[int]`,
      `event ${ns}.Statement.Printed`,
      `property ${ns}.MoneyExtensions.extension(decimal).IsZero`,
      `method ${ns}.MoneyExtensions.extension(decimal).Round()`,
      `property ${ns}.MoneyExtensions.extension<TItem>(IEnumerable<TItem>).Empty`,
      `method ${ns}.MoneyExtensions.extension<TItem>(IEnumerable<TItem>).FirstOrNone()`,
      `method ${ns}.MoneyExtensions.Describe(this decimal)`,
      `field ${ns}.Counter.Value`,
      `operator ${ns}.Counter.operator +=(int)`,
      `operator ${ns}.Counter.operator ++()`,
      `operator ${ns}.Counter.operator +(Counter,Counter)`,
      `method ${ns}.Counter.Name()`,
    ]);
    expect(byKey(res.outline, `${ns}.MoneyExtensions.extension(decimal)`)).toMatchObject({ kind: 'extension', name: 'extension(decimal amount)', startLine: 112, endLine: 117 });
    expect(byKey(res.outline, `${ns}.LedgerBook.Attach(Button?)`)).toMatchObject({ startLine: 28, endLine: 36 });
    // The grammar does not know these constructs: the outline says how many places it repaired around.
    expect(res.outline!.parseErrors).toBeGreaterThanOrEqual(6);
    expect(res.parseFallback).toBe(false);
  });

  it('keeps every member after a null-conditional assignment (FluentAvalonia FAInfoBar)', async () => {
    const text = [
      'namespace Fa.Controls;',
      'public partial class InfoBar : ContentControl',
      '{',
      '    protected override void OnApplyTemplate(TemplateAppliedEventArgs e)',
      '    {',
      '        _appliedTemplate = false;',
      '        _closeButton?.Click -= OnCloseButtonClick;',
      '        base.OnApplyTemplate(e);',
      '        if (_closeButton != null)',
      '        {',
      '            _closeButton.Click += OnCloseButtonClick;',
      '        }',
      '    }',
      '',
      '    protected override void OnPropertyChanged(AvaloniaPropertyChangedEventArgs change) => base.OnPropertyChanged(change);',
      '',
      '    private void OnCloseButtonClick(object sender, RoutedEventArgs e) { }',
      '',
      '    private bool _appliedTemplate;',
      '    private Button _closeButton;',
      '}',
    ].join('\n');
    const res = await chunkText('src/InfoBar.cs', text);
    expect(nodesOf(res.outline).map((n) => `${n.kind} ${n.name} ${n.startLine}-${n.endLine}`)).toEqual([
      'namespace Fa.Controls 1-21',
      'class InfoBar 2-21',
      'method OnApplyTemplate 4-13',
      'method OnPropertyChanged 15-15',
      'method OnCloseButtonClick 17-17',
      'field _appliedTemplate 19-19',
      'field _closeButton 20-20',
    ]);
    // The assignment sits in a method body, which the chunker's parse leaves out (csharp-bodies.ts): no error met.
    expect(res.outline!.parseErrors).toBeUndefined();
    // Parsed whole, the repair's rewrite keeps every member and counts the error.
    const whole = await parseCSharp(ts, text);
    try {
      expect(whole.errors).toBe(1);
      expect(whole.tree.rootNode.hasError).toBe(false);
      expect(nodesOf(outlineFromCSharpTree(whole.tree.rootNode, text, splitLines(text).length)).map((n) => n.name)).toEqual(nodesOf(res.outline).map((n) => n.name));
    } finally {
      whole.tree.delete();
    }
    // A file the grammar knows has no count.
    expect((await chunkFixture('Money.cs')).outline!.parseErrors).toBeUndefined();
  });

  it('bounds the repair re-parses by a work budget per KiB of text, each attempt charged at least half a first parse', async () => {
    // EF Core's OperationExecutorTest.cs: a verbatim interpolated string the grammar misreads (`$@"\""{dir}"", …"`) is an
    // error no rewrite or blanking clears; each attempt re-parses in a few steps (the tree is reused) but costs a walk of it.
    // Charged by its steps alone, each attempt here counted ~15: the repair re-parsed this text 81 times (the real file 160).
    const method = (i: number) => [
      `    public void No_output_path_${i}(string projectDir, string expectedPrefix)`, '    {',
      '        var files = GenerateFilesDryRun(projectDir, null, null, null);', '        testOutputHelper.WriteLine(',
      '            $@"\\""{projectDir}"", ""null"", ""{files.MigrationFile}""");', '',
      '        Assert.Equal($@"{expectedPrefix}{S}Migrations{S}11112233445566_M.cs", files.MigrationFile);', '    }',
    ].join('\n');
    const text = `namespace Demo;\n\npublic class OperationExecutorTest\n{\n${Array.from({ length: 40 }, (_, i) => method(i)).join('\n\n')}\n}\n`;
    class CountingHost extends TreeSitterHost {
      readonly steps: number[] = [];
      override async parse(...args: Parameters<TreeSitterHost['parse']>) {
        try {
          return await super.parse(...args);
        } finally {
          this.steps.push(this.lastParseSteps);
        }
      }
    }
    const host = new CountingHost(createNodeGrammarSource());
    const r = await parseCSharp(host, text);
    r.tree.delete();
    const [first, ...reparses] = host.steps;
    expect(r.errors).toBeGreaterThan(0);
    expect(reparses.length).toBeGreaterThan(1);
    // Every re-parse but the last started within the budget, each counted at no less than the floor.
    const floor = Math.ceil(first * ATTEMPT_MIN_SHARE);
    const budget = repairBudget(text.length);
    expect(reparses.slice(0, -1).reduce((a, s) => a + Math.max(s, floor), 0)).toBeLessThan(budget);
    // Most attempts re-parse in fewer steps than the floor: here the floor, not the steps, is what bounds them.
    expect(reparses.filter((s) => s < floor).length).toBeGreaterThan(reparses.length / 2);
  });

  it('parses `async` used as a name (EF Core test bases: `bool async`, `if (async)`) in two parses after the body-less one, keeping every member', async () => {
    // Before the rewrite of `async` in expressions, this file took 13 parses and lost the two expression-bodied members.
    const host = new CountingHost(createNodeGrammarSource());
    const text = fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/chunking/csharp-repair/AsyncParameterTests.cs'), 'utf8');
    const res = await new Chunker(host).chunk(input('test/Demo.Specification.Tests/AsyncParameterTests.cs', text), LIMITS);
    // The parse without member bodies (csharp-bodies.ts) meets `async` in an expression-bodied member; then the whole text's two.
    expect(host.parses).toBeLessThanOrEqual(3);
    checkInvariants('AsyncParameterTests.cs', splitLines(text), res);
    const type = 'Demo.Specification.Tests.AsyncParameterTestBase<TFixture>';
    const members = flattenOutline(res.outline!).map(({ node }) => node.memberKey).filter((k) => k?.startsWith(`${type}.`)).map((k) => k!.slice(type.length + 1));
    expect(members).toEqual([
      '_cleanups', 'NullableBytes', 'Nested', 'Opens_connection(bool)', 'Where_by_name(bool)', 'Select_conditional(bool)',
      'Closes_when_not_async(bool)', 'ShouldTrack(bool,bool)', 'Counts_with_lambdas(IEnumerable<int>)',
      'DisposeAllAsync(AsyncParameterTestBase<TFixture>)', 'AssertQuery(bool,Func<ISetSource,IQueryable<Customer>>)',
      'SelectAsync()', 'Select()', 'Close(bool)',
    ]);
    // Nothing is left for the grammar to trip on, and names are read from the file's own text.
    const parsed = await parseCSharp(host, text);
    try {
      expect(parsed.tree.rootNode.hasError).toBe(false);
      expect(parsed.parsed.length).toBe(text.length);
    } finally {
      parsed.tree.delete();
    }
    expect(byKey(res.outline, `${type}.Opens_connection(bool)`).startLine).toBe(17);
  });

  it('re-parses incrementally to the same tree a fresh parse of the repaired text gives', async () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'Modern.cs'), 'utf8');
    const repaired = await parseCSharp(ts, text);
    try {
      expect(repaired.parsed.length).toBe(text.length);
      expect(repaired.parsed.split('\n').length).toBe(text.split('\n').length);
      expect(repaired.repaired).toBeGreaterThan(0);
      expect(repaired.tree.rootNode.hasError).toBe(false);
      const fresh = await ts.parse('c_sharp', repaired.parsed);
      expect(repaired.tree.rootNode.toString()).toBe(fresh.rootNode.toString());
      fresh.delete();
    } finally {
      repaired.tree.delete();
    }
  });

  it('parses one branch of each #if block when both branches open a member of their own: every member, no repair', async () => {
    // MSBuild's NodeProviderOutOfProcBase.cs: each branch opens a method (or an `if` block) whose body and brace the
    // branches share. Parsed as one text both branches leave errors no repair clears (that file: 14 ms parse, 1,329
    // ms with repair, the first tree kept). Parsed as a compiler with one set of symbols reads it, the tree is clean.
    const host = new CountingHost(createNodeGrammarSource());
    const text = fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/chunking/csharp-repair/ConditionalMembers.cs'), 'utf8');
    const res = await new Chunker(host).chunk(input('src/Build/BackEnd/ConditionalMembers.cs', text), LIMITS);
    expect(host.parses).toBe(2); // the first parse, then the one-branch view; no repair attempt
    checkInvariants('ConditionalMembers.cs', splitLines(text), res);
    expect(res.outline!.parseErrors).toBeUndefined();
    const type = 'Demo.Build.BackEnd.NodeProviderOutOfProc';
    const members = flattenOutline(res.outline!).map(({ node }) => node.memberKey).filter((k) => k?.startsWith(`${type}.`)).map((k) => k!.slice(type.length + 1));
    expect(members).toEqual(['_timeout', '#ctor(int)', 'TryConnectToProcess(string,int,bool)', 'ShutdownConnectedNodes(bool)', 'Timeout', 'Kill()', 'Trace(string)']);
    // The method's range runs from its branch to its closing brace; the `#else` branch's lines are in its chunk's text.
    const connect = byKey(res.outline, `${type}.TryConnectToProcess(string,int,bool)`);
    expect([connect.startLine, connect.endLine]).toEqual([16, 27]);
    const lines = splitLines(text);
    const holding = res.chunks.filter((c) => lines.slice(c.startLine - 1, c.endLine).join('\n').includes('LegacyPipeSecurityOptions'));
    expect(holding.length).toBeGreaterThan(0);
    // The view was re-parsed incrementally from the first tree: the same tree a fresh parse of the view gives.
    const viewed = await parseCSharp(ts, text);
    try {
      expect(viewed.parsed).toBe(oneBranchView(text));
      const fresh = await ts.parse('c_sharp', viewed.parsed);
      expect(viewed.tree.rootNode.toString()).toBe(fresh.rootNode.toString());
      fresh.delete();
    } finally {
      viewed.tree.delete();
    }
  });

  it('still finds by keyword a word only in a branch the parse blanked (a real index in a temp folder)', async () => {
    const text = fs.readFileSync(path.resolve(import.meta.dirname, 'fixtures/chunking/csharp-repair/ConditionalMembers.cs'), 'utf8');
    await withTmpWorkspace({ 'src/Build/ConditionalMembers.cs': text, 'src/Other.cs': 'namespace Demo;\n\npublic class Other\n{\n    public void Run() { }\n}\n' }, async (w) => {
      const ws = await openWorkspace(w.root);
      try {
        await ws.index({ full: true });
        for (const query of ['LegacyPipeSecurityOptions', 'OwnerOnly']) {
          const res = await ws.search({ query, limit: 5 });
          if (res.status !== 'ok') throw new Error(JSON.stringify(res));
          expect(res.hits.map((h) => h.path), query).toEqual(['src/Build/ConditionalMembers.cs']);
        }
      } finally {
        ws.close();
      }
    });
  }, 60_000);

  it('blanks all but the first branch of each conditional block, keeping every length and line break', () => {
    const text = [
      'class A {', '#if X', '  int a;', '# elif Y', '  int b;', '#else', '  int c;', '  #if Z', '  int d;', '  #endif', '#endif',
      '#if false // off', '  junk(', '#else', '  int e;', '#endif', '#if P', '  #if Q', '  int f;', '  #else', '  int g;', '  #endif', '#endif', '}',
    ].join('\n');
    const view = oneBranchView(text)!;
    expect(view.length).toBe(text.length);
    expect(view.split('\n').map((l) => l.trim()).filter(Boolean)).toEqual(['class A {', 'int a;', 'int e;', 'int f;', '}']);
    // No conditional block, or directives that do not nest: no view.
    expect(oneBranchView('class A { }\n#region R\n#endregion\n')).toBeNull();
    expect(oneBranchView('class A {\n#endif\n}')).toBeNull();
    expect(oneBranchView('class A {\n#if X\n}')).toBeNull();
  });

  it('rewrites only what the grammar lacks, keeping every length and line break', () => {
    const cases: Array<[string, string | null]> = [
      ['  _b?.Click -= OnClick;', '  _b .Click -= OnClick;'],
      ['x?.Items?[0] = y?.Value;', 'x .Items [0] = y?.Value;'],
      ['var v = a?.b;', null],
      ['private List<int> _x = [];', 'private List<int> _x = 0 ;'],
      ['return all.Count == 0 ? [] : all;', 'return all.Count == 0 ? 0  : all;'],
      ['int[] a = new int[3];', null],
      ['void M(params ReadOnlySpan<int> xs)', 'void M(       ReadOnlySpan<int> xs)'],
      ['void M(params int[] xs)', null],
      ['F f = (text, out result) => Parse(text, out result);', 'F f = (text,     result) => Parse(text,     result);'],
      ['class G<T> where T : allows ref struct', 'class G<T>                            '],
      ['class G<T> where T : class, allows ref struct', 'class G<T> where T : class                   '],
      ['public void operator +=(int x)', 'public void operator + (int x)'],
      ['\n    extension(string s)\n    ', '\n    class __ext        \n    '],
      ['public sbyte?[] Prop ', null],
      ['private int?[] _x = null;', null],
      ['x = c ? [] : y ?? [];', 'x = c ? 0  : y ?? 0 ;'],
      ['\n        if (async)\n        ', '\n        if (_asyn)\n        '],
      ['return async ? A(async: async) : !async && b || async;', 'return _asyn ? A(_asyn: _asyn) : !_asyn && b || _asyn;'],
      ['=> AssertQuery(async, ss => ss.Set<C>());', '=> AssertQuery(_asyn, ss => ss.Set<C>());'],
      ['Func<Task> f = async () => await g(async x => x, async delegate { });', null],
      ['protected abstract void Close(bool async);', null],
    ];
    for (const [input, want] of cases) {
      const got = rewriteKnown(input);
      expect(got, input).toBe(want);
      if (got !== null) expect(got.length, input).toBe(input.length);
    }
  });
});

describe('sample workspace C# and Razor', () => {
  function files(dir: string): string[] {
    return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) return e.name === '.hci' ? [] : files(p);
      return /\.(?:cs|razor|cshtml)$/.test(e.name) ? [path.relative(SAMPLE, p).split(path.sep).join('/')] : [];
    });
  }

  it('extracts every .cs/.razor/.cshtml file without fallback, inside the file, with unique keys and full coverage', async () => {
    const rels = files(SAMPLE);
    expect(rels.length).toBeGreaterThan(40);
    const stats = { cs: { files: 0, lines: 0, chunks: 0, ms: 0 }, razor: { files: 0, lines: 0, chunks: 0, ms: 0 } };
    for (const rel of rels) {
      const inp = input(rel, fs.readFileSync(path.join(SAMPLE, rel), 'utf8'));
      const t0 = performance.now();
      const res = await chunker.chunk(inp, LIMITS);
      const s = inp.lang === 'csharp' ? stats.cs : stats.razor;
      s.ms += performance.now() - t0;
      s.files++;
      s.lines += inp.lines.length;
      s.chunks += res.chunks.length;
      checkInvariants(rel, inp.lines, res);
    }
    console.info(`sample workspace: C# ${JSON.stringify({ ...stats.cs, ms: Math.round(stats.cs.ms) })}, Razor ${JSON.stringify({ ...stats.razor, ms: Math.round(stats.razor.ms) })}`);
  });

  it('pairs a .razor.cs code-behind and its component by type key', async () => {
    const rel = 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor';
    const razor = await chunker.chunk(input(rel, fs.readFileSync(path.join(SAMPLE, rel), 'utf8')), LIMITS);
    const cs = await chunker.chunk(input(`${rel}.cs`, fs.readFileSync(path.join(SAMPLE, `${rel}.cs`), 'utf8')), LIMITS);
    const key = 'Contoso.Shop.Web.Components.Pages.ProductDetails';
    expect(razor.outline!.nodes[0].memberKey).toBe(key);
    expect(byKey(cs.outline, key).kind).toBe('class');
    expect(byKey(cs.outline, `${key}.AddToCartAsync()`).startLine).toBe(54);
  });
});

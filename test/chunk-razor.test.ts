// Razor / Blazor outline extractor: the block splitter (directives, markup, @code/@functions blocks
// with brace matching through every C# string and comment form), component keys and code-behind
// pairing, markup facts, golden outlines and chunks for realistic .razor and .cshtml files, and
// tolerance of malformed input.
// @lane unit
import { describe, it, expect, beforeAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Chunker } from '../core/chunk/chunker.ts';
import { TreeSitterHost } from '../core/chunk/treesitter.ts';
import { flattenOutline, type FileOutline, type OutlineNode } from '../core/chunk/outline.ts';
import type { ChunkLimits, ChunkResult } from '../core/chunk/types.ts';
import { extractRazor, folderNamespace, pageRoute, parseInject, razorComponentKey } from '../core/chunk/lang/razor.ts';
import { findClosingBrace, skipString, splitRazor } from '../core/chunk/lang/razor-blocks.ts';
import { splitLines } from '../core/scan/content.ts';
import { createNodeGrammarSource } from '../runtimes/node/grammars.ts';
import { byKey, expectGolden, nodesOf, renderGolden } from './helpers/chunk-golden.ts';

const LIMITS: ChunkLimits = { chunkLines: 110, overlapLines: 15, maxChunkBytes: 65536 };
const FIXTURES = path.resolve(import.meta.dirname, 'fixtures/chunking/razor');
const SAMPLE = path.resolve(import.meta.dirname, 'sample-workspace');

const ts = new TreeSitterHost(createNodeGrammarSource());
const chunker = new Chunker(ts);

function input(p: string, text: string) {
  const lines = splitLines(text);
  return { path: p, lang: 'razor', lines, text: lines.join('\n') };
}

/** Fixture file → the workspace path it pretends to have (the path decides the component key). */
const FIXTURE_PATHS: Record<string, string> = {
  'OrderEditor.razor': 'src/Contoso.Shop.Web/Components/Pages/Orders/OrderEditor.razor',
  'Counter.razor': 'src/Contoso.Shop.Web/Components/Pages/Counter.razor',
  'DataGrid.razor': 'src/Contoso.Shop.Web/Components/Shared/DataGrid.razor',
  'Views/Orders/Details.cshtml': 'src/Contoso.Shop.Web/Views/Orders/Details.cshtml',
};

async function chunkFixture(name: string): Promise<ChunkResult> {
  return chunker.chunk(input(FIXTURE_PATHS[name], fs.readFileSync(path.join(FIXTURES, name), 'utf8')), LIMITS);
}


beforeAll(async () => {
  await ts.parser('c_sharp');
  await ts.parser('html');
});

describe('C# brace matching for Razor code blocks', () => {
  const close = (body: string) => {
    const text = `{${body}}TAIL`;
    const i = findClosingBrace(text, 1);
    return text.slice(i);
  };

  it.each([
    ['nested braces', 'if (a) { b(); } else { c(); }'],
    ['a regular string', 'var s = "}{ \\" }";'],
    ['a verbatim string with "" escapes', 'var s = @"C:\\{dir}\\""}""";'],
    ['an interpolated string with holes, nested braces and {{ }} escapes', 'var s = $"{{literal}} {x} {(y ? "}" : $"{z:N2}")} {new { A = 1 }.A}";'],
    ['an interpolated verbatim string', 'var s = $@"{a}\\""}"" {{"; var t = @$"{b}";'],
    ['a raw string', 'var s = """\n  { "json": "}" }\n  """;'],
    ['an interpolated raw string with $$', 'var s = $$"""{ "id": {{id}}, "x": "{ }" }""";'],
    ['char literals', "var a = '{'; var b = '}'; var c = '\\''; var d = '\\u007D';"],
    ['line and block comments', '// } here\n /* } { */ x();'],
    ['a Razor comment', '@* } *@ x();'],
    ['an apostrophe in markup text', 'RenderFragment f = @<p>Don\'t</p>;'],
  ])('skips %s', (_name, body) => {
    expect(close(body)).toBe('}TAIL');
  });

  it('reports an unclosed block', () => {
    expect(findClosingBrace('{ if (a) { ', 1)).toBe(-1);
    expect(findClosingBrace('{ var s = "}', 1)).toBe(-1);
  });

  it('recognises string starts only where a string starts', () => {
    expect(skipString('@name', 0)).toBe(0);
    expect(skipString('$x', 0)).toBe(0);
    expect(skipString('"" + 1', 0)).toBe(2);
    expect(skipString('@"a""b" + 1', 0)).toBe(7);
  });
});

describe('Razor block splitter', () => {
  it('finds directives, markup and several code blocks', () => {
    const text = fs.readFileSync(path.join(FIXTURES, 'OrderEditor.razor'), 'utf8');
    const split = splitRazor(splitLines(text).join('\n'));
    expect(split.directives.map((d) => [d.keyword, d.value, d.line])).toEqual([
      ['page', '"/orders/{OrderId:int}/edit"', 1],
      ['page', '"/orders/new"', 2],
      ['attribute', '[Authorize(Roles = "Sales")]', 3],
      ['layout', 'AdminLayout', 4],
      ['rendermode', 'InteractiveServer', 5],
      ['using', 'Contoso.Shop.Application.Ordering', 6],
      ['using', 'Contoso.Shop.Domain.Ordering', 7],
      ['implements', 'IAsyncDisposable', 8],
      ['inject', 'OrderingService Ordering', 9],
      ['inject', 'NavigationManager Navigation', 10],
      ['inject', 'ILogger<OrderEditor> Logger', 11],
    ]);
    expect(split.regions.map((r) => [r.kind, r.startLine, r.endLine])).toEqual([
      ['directives', 1, 11],
      ['markup', 14, 51],
      ['code', 53, 71],
      ['markup', 73, 73],
      ['code', 75, 114],
    ]);
    expect(split.codeBlocks.map((b) => [b.keyword, b.openLine, b.closed])).toEqual([
      ['code', 53, true],
      ['code', 75, true],
    ]);
  });

  it('tells a @using statement from a directive and skips Razor comments', () => {
    const split = splitRazor(['@using Foo.Bar', '@using (var scope = Begin())', '{', '}', '@* @code { *@', '@*', '@code {', '*@', '<p>x</p>'].join('\n'));
    expect(split.directives.map((d) => d.value)).toEqual(['Foo.Bar']);
    expect(split.codeBlocks).toEqual([]);
    expect(split.regions.map((r) => [r.kind, r.startLine, r.endLine])).toEqual([
      ['directives', 1, 1],
      ['markup', 2, 9],
    ]);
  });

  it('runs an unclosed code block to the end of the file and accepts a brace on the next line', () => {
    const split = splitRazor(['<h1>x</h1>', '@functions', '{', '    int A() => 1;', '}', '@code {', '    void B() {'].join('\n'));
    expect(split.codeBlocks.map((b) => [b.keyword, b.startLine, b.openLine, b.endLine, b.closed])).toEqual([
      ['functions', 2, 3, 5, true],
      ['code', 6, 6, 7, false],
    ]);
  });
});

describe('Razor component keys', () => {
  it('derives the namespace from @namespace, the code-behind or the project folders', () => {
    expect(folderNamespace('src/Contoso.Shop.Web/Components/Pages/Checkout.razor')).toBe('Contoso.Shop.Web.Components.Pages');
    expect(folderNamespace('WebApp/Pages/Admin/Users.razor')).toBe('WebApp.Pages.Admin');
    expect(folderNamespace('Users.razor')).toBeNull();
    expect(razorComponentKey('src/Contoso.Shop.Web/Components/Pages/Checkout.razor', [])).toBe('Contoso.Shop.Web.Components.Pages.Checkout');
    expect(razorComponentKey('x/Checkout.razor', [{ keyword: 'namespace', value: 'Shop.UI', line: 1 }])).toBe('Shop.UI.Checkout');
    expect(razorComponentKey('Checkout.razor', [], 'using X;\nnamespace Shop.Pages;\npublic partial class Checkout {}')).toBe('Shop.Pages.Checkout');
    expect(razorComponentKey('Checkout.razor', [])).toBe('Checkout');
    const typeparams = [{ keyword: 'typeparam', value: 'TItem where TItem : class', line: 1 }, { keyword: 'typeparam', value: 'TKey', line: 2 }];
    expect(razorComponentKey('Shared/Grid.razor', typeparams, 'namespace Shop.Shared;\npublic partial class Grid<TItem, TKey> {}')).toBe('Shop.Shared.Grid<TItem,TKey>');
    expect(razorComponentKey('src/Contoso.Shop.Web/Views/Home/Index.cshtml', [])).toBe('AspNetCoreGeneratedDocument.Views_Home_Index');
    expect(pageRoute('src/Shop.Web/Pages/Orders/Index.cshtml', '')).toBe('/Orders');
    expect(pageRoute('src/Shop.Web/Pages/Orders/Edit.cshtml', '"{id:int}"')).toBe('/Orders/Edit/{id:int}');
    expect(pageRoute('src/Shop.Web/Pages/Index.cshtml', '')).toBe('/');
    expect(pageRoute('src/Shop.Web/Components/Pages/Home.razor', '"/"')).toBe('/');
    expect(parseInject('IOptions<Dictionary<string, int>> Settings')).toEqual({ type: 'IOptions<Dictionary<string,int>>', name: 'Settings' });
  });

  it('keys a component like its .razor.cs partial class, from the folders or from the code-behind', async () => {
    const rel = 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor';
    const razorText = fs.readFileSync(path.join(SAMPLE, rel), 'utf8');
    const codeBehind = fs.readFileSync(path.join(SAMPLE, `${rel}.cs`), 'utf8');
    const fromFolders = await extractRazor(input(rel, razorText), ts);
    expect(fromFolders!.nodes[0].memberKey).toBe('Contoso.Shop.Web.Components.Pages.ProductDetails');
    // Elsewhere in the tree the folders say nothing; the code-behind still does.
    const fromCodeBehind = await extractRazor(input('ProductDetails.razor', razorText), ts, { codeBehind });
    expect(fromCodeBehind!.nodes[0].memberKey).toBe('Contoso.Shop.Web.Components.Pages.ProductDetails');
  });
});

describe('Razor golden outlines and chunks', () => {
  it.each(Object.keys(FIXTURE_PATHS))('%s matches its golden outline and chunks', async (name) => {
    const res = await chunkFixture(name);
    expect(res.parseFallback).toBe(false);
    expectGolden(path.join(FIXTURES, name), renderGolden(res));
  });

  it('gives members of several @code blocks their file lines and component keys', async () => {
    const { outline, chunks } = await chunkFixture('OrderEditor.razor');
    const key = 'Contoso.Shop.Web.Components.Pages.Orders.OrderEditor';
    expect(outline!.nodes[0]).toMatchObject({ kind: 'page', name: 'OrderEditor', memberKey: key, startLine: 1, endLine: 114 });
    expect(outline!.fileContext).toEqual(['@page "/orders/{OrderId:int}/edit"', '@page "/orders/new"', `component ${key}`]);
    expect(byKey(outline, `${key}.OrderId`)).toMatchObject({ kind: 'property', startLine: 54, endLine: 57, facts: ['parameter OrderId'] });
    expect(byKey(outline, `${key}.OnParametersSetAsync()`)).toMatchObject({ startLine: 66, endLine: 70 });
    // Strings and chars full of braces in the second block do not move anything.
    expect(byKey(outline, `${key}.Raw`)).toMatchObject({ kind: 'field', startLine: 83, endLine: 85 });
    expect(byKey(outline, `${key}.SaveAsync()`)).toMatchObject({ startLine: 87, endLine: 103 });
    expect(byKey(outline, `${key}.ShowErrors(EditContext)`).startLine).toBe(105);
    expect(byKey(outline, `${key}.DisposeAsync()`).startLine).toBe(113);
    expect(byKey(outline, `${key}.Navigation`)).toMatchObject({ kind: 'inject', startLine: 10, endLine: 10 });
    const save = chunks.find((c) => c.symbol?.memberKey === `${key}.SaveAsync()`)!;
    expect(save.header.split('\n')).toEqual(['@page "/orders/{OrderId:int}/edit"', '@page "/orders/new"', `component ${key}`, '@code']);
  });

  it('lists routes, services, components, handlers, bindings and form models as facts', async () => {
    const { outline, chunks } = await chunkFixture('OrderEditor.razor');
    const directives = nodesOf(outline).find((n) => n.kind === 'directives')!;
    expect(directives.facts).toEqual([
      'route /orders/{OrderId:int}/edit',
      'route /orders/new',
      'attribute [Authorize(Roles = "Sales")]',
      'layout AdminLayout',
      'rendermode InteractiveServer',
      'implements IAsyncDisposable',
      'inject OrderingService Ordering',
      'inject NavigationManager Navigation',
      'inject ILogger<OrderEditor> Logger',
      'usings: Contoso.Shop.Application.Ordering, Contoso.Shop.Domain.Ordering',
    ]);
    const form = chunks.find((c) => c.symbol?.name === 'EditForm')!;
    expect(form).toMatchObject({ startLine: 22, endLine: 52, kind: 'element' });
    const facts = form.header.split('\n');
    expect(facts).toContain('components: EditForm, DataAnnotationsValidator, ValidationSummary, InputText, InputSelect, OrderLinesGrid');
    expect(facts).toContain('handlers: OnValidSubmit=SaveAsync, OnInvalidSubmit=ShowErrors, @bind-Value:after=OnStatusChanged, OnLineRemoved=RemoveLine, @onclick=Cancel, @onclick=() => Navigation.NavigateTo(ListUrl)');
    expect(facts).toContain('bindings: @bind-Value=model.CustomerName, @bind-Value=model.Status');
    expect(facts).toContain('form: EditForm Model=model OnValidSubmit=SaveAsync OnInvalidSubmit=ShowErrors FormName=order-editor');
    // `Enum.GetValues<OrderStatus>()` in a Razor loop is a generic argument, not a component.
    expect(form.header).not.toMatch(/components:.*OrderStatus/);
  });

  it('keeps a small component in one chunk with every fact in its header', async () => {
    const { chunks } = await chunkFixture('Counter.razor');
    expect(chunks).toHaveLength(1);
    expect(chunks[0]).toMatchObject({ startLine: 1, endLine: 21, kind: 'page', symbol: { kind: 'page', name: 'Counter', memberKey: 'Contoso.Shop.Web.Components.Pages.Counter' } });
    expect(chunks[0].header.split('\n')).toEqual([
      '@page "/counter"',
      'component Contoso.Shop.Web.Components.Pages.Counter',
      'route /counter',
      'inject IJSRuntime JS',
      'handlers: @onclick=IncrementCount',
      'parameter Step',
    ]);
  });

  it('reads an MVC view with @model, tag helpers and @functions', async () => {
    const { outline } = await chunkFixture('Views/Orders/Details.cshtml');
    const key = 'AspNetCoreGeneratedDocument.Views_Orders_Details';
    expect(outline!.nodes[0]).toMatchObject({ kind: 'view', name: 'Details', memberKey: key });
    expect(outline!.fileContext).toEqual(['view Details', '@model Contoso.Shop.Web.Models.OrderDetailsViewModel']);
    expect(byKey(outline, `${key}.FormatMoney(decimal,CultureInfo)`)).toMatchObject({ startLine: 34, endLine: 35 });
    expect(byKey(outline, `${key}.FormatMoney(Money)`).startLine).toBe(37);
    const form = nodesOf(outline).find((n) => n.name === 'form')!;
    expect(form.facts).toEqual(['bindings: asp-for=CancelReason', 'form: form asp-action=Cancel method=post']);
  });

  it('reads the sample Checkout page: two @code blocks, a nested model class and an escaped interpolation', async () => {
    const rel = 'src/Contoso.Shop.Web/Components/Pages/Checkout.razor';
    const { outline } = await chunker.chunk(input(rel, fs.readFileSync(path.join(SAMPLE, rel), 'utf8')), LIMITS);
    const key = 'Contoso.Shop.Web.Components.Pages.Checkout';
    expect(nodesOf(outline).filter((n) => n.kind === 'code').map((n) => [n.startLine, n.endLine])).toEqual([[129, 197], [199, 248]]);
    expect(byKey(outline, `${key}.SubmitOrder()`)).toMatchObject({ startLine: 163, endLine: 188 });
    expect(byKey(outline, `${key}.ReceiptJsTemplate`)).toMatchObject({ startLine: 203, endLine: 204 });
    expect(byKey(outline, `${key}+CheckoutModel`)).toMatchObject({ kind: 'class', startLine: 216, endLine: 247 });
    expect(byKey(outline, `${key}+CheckoutModel.ToAddress()`).startLine).toBe(245);
  });
});

describe('Razor error tolerance', () => {
  it('never throws and keeps every range inside the file', async () => {
    const cases = [
      '',
      '@code {',
      '@code { void A() { }',
      '@page\n@inject\n@code',
      '<div><p>unclosed\n@if (x) {\n<span>',
      '@code { string s = $"{ {"; }\n<p>after</p>',
      '@functions { int X => """; }',
      '@* never closed\n@code { }',
      '}}}}\n@code { } }\n<p/>',
      '<Grid Items="@(new List<Item>())" />\n@code { List<Item> items = new(); }',
    ];
    for (const text of cases) {
      const inp = input('Pages/Broken.razor', text);
      const outline = await extractRazor(inp, ts);
      for (const n of nodesOf(outline)) {
        expect(n.startLine, JSON.stringify(text)).toBeGreaterThanOrEqual(1);
        expect(n.endLine, JSON.stringify(text)).toBeLessThanOrEqual(Math.max(1, inp.lines.length));
      }
      const res = await chunker.chunk(inp, LIMITS);
      expect(res.parseFallback, JSON.stringify(text)).toBe(false);
    }
  });

  it('keeps members of a code block whose C# is broken', async () => {
    const text = ['<h1>Hi</h1>', '', '@code {', '    private int count;', '', '    private void Broken( {', '', '    private void Fine() => count++;', '}'].join('\n');
    const outline = await extractRazor(input('MyApp/Pages/Hi.razor', text), ts);
    const code = nodesOf(outline).find((n) => n.kind === 'code')!;
    expect(code).toMatchObject({ startLine: 3, endLine: 9 });
    expect(nodesOf(outline).find((n) => n.memberKey?.endsWith('.count'))).toMatchObject({ startLine: 4, endLine: 4 });
    for (const n of code.children) expect(n.memberKey?.startsWith('MyApp.Pages.Hi.') || n.memberKey === undefined).toBe(true);
  });

  it('keeps every member of a code block after C# 14 syntax the grammar does not know, and counts it', async () => {
    const text = [
      '<MudButton @ref="_button">Close</MudButton>',
      '',
      '@code {',
      '    private MudButton? _button;',
      '    private List<string> _items = [];',
      '',
      '    protected override void OnAfterRender(bool firstRender)',
      '    {',
      '        _button?.Disabled = !firstRender;',
      '        _items.Add("x");',
      '    }',
      '',
      '    private void Close() => _button?.Text = "closed";',
      '',
      '    [Parameter] public string Title { get; set; } = "";',
      '}',
    ].join('\n');
    const outline = await extractRazor(input('MyApp/Pages/Dialog.razor', text), ts);
    const code = nodesOf(outline).find((n) => n.kind === 'code')!;
    expect(code.children.map((n) => `${n.kind} ${n.memberKey} ${n.startLine}-${n.endLine}`)).toEqual([
      'field MyApp.Pages.Dialog._button 4-4',
      'field MyApp.Pages.Dialog._items 5-5',
      'method MyApp.Pages.Dialog.OnAfterRender(bool) 7-11',
      'method MyApp.Pages.Dialog.Close() 13-13',
      'property MyApp.Pages.Dialog.Title 15-15',
    ]);
    expect(outline!.parseErrors).toBeGreaterThanOrEqual(2);
  });

  it('reads a Razor template in a code block as one expression: its member spans it, the next member is its own', async () => {
    const text = [
      '@code {',
      '    RenderFragment content = null;',
      '    RenderFragment rf1 = @<MudText Typo="@Typo.h6">I Am <b>Field</b><br></MudText>;',
      '    private RenderFragment<Row> Cells => row =>',
      '        @<MudTd>',
      '            @if (row.Visible) { <span>@row.Name</span> }',
      '        </MudTd>;',
      '    string color = "#6cf014";',
      '}',
    ].join('\n');
    const outline = await extractRazor(input('MyApp/Pages/Field.razor', text), ts);
    const code = nodesOf(outline).find((n) => n.kind === 'code')!;
    expect(code.children.map((n) => `${n.kind} ${n.name} ${n.startLine}-${n.endLine}`)).toEqual([
      'field content 2-2',
      'field rf1 3-3',
      'property Cells 4-7',
      'field color 8-8',
    ]);
    expect(outline!.parseErrors).toBeUndefined();
  });
});

// The bundled sample workspace end to end: it indexes cleanly, and distinctive facts of each kind of
// file (C# member, Razor route and injection, AXAML x:Name and binding, config key, CSS, CI job,
// docs heading) rank the right file first.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { tmpDir } from './helpers/tmp-workspace.ts';

const sample = path.resolve(import.meta.dirname, 'sample-workspace');
let root: string;
let w: HciWorkspace;

beforeAll(async () => {
  root = tmpDir('hci-sample-');
  fs.cpSync(sample, root, { recursive: true, filter: (src) => !src.includes(`${path.sep}.hci`) });
  w = await openWorkspace(root);
  await w.index();
});

afterAll(() => {
  w?.close();
  fs.rmSync(root, { recursive: true, force: true });
});

const FIRST: Array<[string, string]> = [
  ['GetCatalogItemsAsync', 'src/Contoso.Shop.Application/Catalog/CatalogService.cs'],
  ['PlaceOrderAsync', 'src/Contoso.Shop.Application/Ordering/OrderingService.cs'],
  ['ShoppingCart', 'src/Contoso.Shop.Application/Cart/ShoppingCart.cs'],
  ['StyleInclude', 'src/Contoso.Shop.Desktop/App.axaml'],
  ['@page "/catalog/{Category}"', 'src/Contoso.Shop.Web/Components/Pages/Catalog.razor'],
  ['@inject ICatalogService CatalogService', 'src/Contoso.Shop.Web/Components/Pages/Catalog.razor'],
  ['"/products/{Id:int}"', 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor'],
  ['OrdersGrid', 'src/Contoso.Shop.Desktop/Views/MainWindow.axaml'],
  ['SelectedOrder.Customer.Name', 'src/Contoso.Shop.Desktop/Views/MainWindow.axaml'],
  ['StatusBadge', 'src/Contoso.Shop.Desktop/Views/OrderDetailsView.axaml'],
  ['RefreshOrdersAsync', 'src/Contoso.Shop.Desktop/ViewModels/MainWindowViewModel.cs'],
  ['MaxItemsPerOrder ext:json', 'src/Contoso.Shop.Web/appsettings.json'],
  ['OrderingDb', 'src/Contoso.Shop.Web/appsettings.json'],
  ['OnModelCreating', 'src/Contoso.Shop.Application/Data/ShopDbContext.cs'],
  ['ThreeForTwoRule', 'src/Contoso.Shop.Application/Pricing/PricingEngine.cs'],
  ['where is the order discount calculated', 'src/Contoso.Shop.Application/Pricing/PricingEngine.cs'],
  ['ExpireStaleOrdersAsync', 'src/Contoso.Shop.Application/Ordering/OrderingService.cs'],
  ['AddShopApplication', 'src/Contoso.Shop.Application/DependencyInjection/ServiceCollectionExtensions.cs'],
  ['cart-badge--flash', 'src/Contoso.Shop.Web/wwwroot/css/site.css'],
  ['showMiniReceipt', 'src/Contoso.Shop.Web/wwwroot/js/cart.js'],
  ['FormatPrice', 'src/Contoso.Shop.Web/Views/Home/Index.cshtml'],
  ['publish-desktop', '.github/workflows/ci.yml'],
  ['"Use Blazor Server"', 'docs/adr/0001-use-blazor-server.md'],
  ['runtime_identifiers', 'tools/release.toml'],
  ['Mozzarella di Giovanni', 'tools/seed-data.json'],
];

describe('the bundled sample workspace', () => {
  it('indexes every file it holds, skipping nothing unexpected', async () => {
    const s = await w.status({ checkPending: true });
    expect(s.status).toBe('ok');
    expect(s.index!.files).toBeGreaterThanOrEqual(60);
    expect(s.pending).toEqual({ added: 0, modified: 0, deleted: 0 });
    expect(Object.keys(s.files_by_lang)).toEqual(expect.arrayContaining(['csharp', 'razor', 'axaml', 'json', 'markdown', 'yaml', 'msbuild', 'css']));
    expect(s.skipped.binary ?? 0).toBe(0);
    expect(s.skipped.secret_content ?? 0).toBe(0);
  });

  it.each(FIRST)('%s → %s first', async (query, expected) => {
    const r = await w.search({ query, limit: 3 });
    expect(r.status).toBe('ok');
    expect(r.hits[0]?.path, JSON.stringify(r.hits.map((h) => h.path))).toBe(expected);
  });
});

describe('paired files', () => {
  it('search hits and explain show a Razor component with its code-behind and scoped CSS', async () => {
    const r = await w.search({ query: '"/products/{Id:int}"', limit: 3 });
    const hit = r.hits.find((h) => h.path === 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor')!;
    expect(hit.paired).toEqual(['src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor.cs', 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor.css']);
    const e = await w.explain(hit.hit_id);
    expect(e.explanation?.paired_files).toEqual(
      expect.arrayContaining([
        { path: 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor.cs', relation: 'code_behind' },
        { path: 'src/Contoso.Shop.Web/Components/Pages/ProductDetails.razor.css', relation: 'scoped_css' },
      ]),
    );
  });

  it('an AXAML code-behind points back to its view', async () => {
    const r = await w.search({ query: 'OnOrdersGridKeyDown', limit: 3 });
    const hit = r.hits.find((h) => h.path === 'src/Contoso.Shop.Desktop/Views/MainWindow.axaml.cs')!;
    expect(hit.paired).toEqual(['src/Contoso.Shop.Desktop/Views/MainWindow.axaml']);
  });
});

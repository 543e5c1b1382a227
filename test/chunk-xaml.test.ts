// Golden tests for AXAML / XAML chunking: the outline (root keyed by x:Class for the code-behind
// pairing; resources, styles, themes, templates, named elements and layout subtrees with exact
// line ranges), the chunks cut from it, and the search facts (x:Name, bindings, commands, classes,
// avares:// URIs, data types). Broken markup still yields a partial outline, never a lost file.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { bindingPath } from '../core/chunk/lang/xaml.ts';
import { chunkFile, chunkLines, chunkText, expectWellFormed, findNode, outlineLines, sampleDir, testDir } from './helpers/chunk-golden.ts';

const desktop = 'sample-workspace/src/Contoso.Shop.Desktop';

describe('AXAML: MainWindow.axaml (sample workspace)', () => {
  it('outlines the window: root keyed by x:Class, templates, key bindings, layout subtrees, named grid', async () => {
    const r = await chunkFile(`${desktop}/Views/MainWindow.axaml`);
    expect(r.parseFallback).toBe(false);
    expect(outlineLines(r.outline)).toEqual([
      'view MainWindow 1-122 key=Contoso.Shop.Desktop.Views.MainWindow',
      '  templates Window.DataTemplates 17-22',
      '    template DataTemplate vm:OrderDetailsViewModel 19-21',
      '  property Window.KeyBindings 24-26',
      '  layout DockPanel 28-121',
      '    layout Border.toolbar 30-62',
      '      layout Grid 31-61',
      '        layout TextBox 34-40',
      '        layout ComboBox 42-50',
      '          template DataTemplate vm:StatusFilterOption 46-48',
      '        control Button Cancel order 52-55',
      '        control Button.accent Refresh 57-60',
      '    layout Border.statusbar 65-73',
      '      layout Grid 66-72',
      '    layout TabControl 75-120',
      '      layout TabItem Orders 76-115',
      '        layout Grid 77-114',
      '          element DataGrid OrdersGrid 78-104 key=Contoso.Shop.Desktop.Views.MainWindow.OrdersGrid',
      '            property DataGrid.Columns 86-94',
      '            property DataGrid.ContextMenu 96-103',
      '              layout ContextMenu 97-102',
      '          layout Panel 108-113',
      '      layout TabItem Inventory 117-119',
    ]);
    expect(r.outline!.fileContext).toEqual([
      'x:Class=Contoso.Shop.Desktop.Views.MainWindow',
      'x:DataType=Contoso.Shop.Desktop.ViewModels.MainWindowViewModel',
    ]);
  });

  it('cuts chunks along the outline, each with its element path and facts in the header', async () => {
    const r = await chunkFile(`${desktop}/Views/MainWindow.axaml`);
    expect(chunkLines(r.chunks)).toEqual([
      '1-16 view MainWindow', // the view's head (root element and its attributes) under the view's own symbol
      '17-23 templates Window.DataTemplates',
      '24-27 property Window.KeyBindings',
      '28-41 layout TextBox',
      '42-51 layout ComboBox',
      '52-56 control Button Cancel order',
      '57-63 control Button.accent Refresh',
      '64-74 layout Border.statusbar',
      '75-105 element DataGrid OrdersGrid',
      '106-116 layout Panel',
      '117-122 layout TabItem Inventory',
    ]);
    const grid = r.chunks.find((c) => c.symbol?.name === 'DataGrid OrdersGrid')!;
    expect(grid.symbol!.memberKey).toBe('Contoso.Shop.Desktop.Views.MainWindow.OrdersGrid');
    expect(grid.header).toContain('x:Class=Contoso.Shop.Desktop.Views.MainWindow');
    expect(grid.header).toContain('Window > DockPanel > TabControl > TabItem > Grid');
    for (const fact of ['x:Name=OrdersGrid', 'Binding=Orders', 'Binding=SelectedOrder', 'Binding=Customer.Name', 'Command=CancelSelectedOrderCommand', 'Click=OnCopyOrderNumberClick', 'DataType=Contoso.Shop.Domain.Ordering.Order']) {
      expect(grid.header, fact).toContain(fact);
    }
    const status = r.chunks.find((c) => c.symbol?.name === 'Border.statusbar')!;
    expect(status.header).toContain('CompiledBinding=SelectedOrder.Customer.Name');
    expect(status.header).toContain('Classes=statusbar');
    const keys = r.chunks.find((c) => c.symbol?.name === 'Window.KeyBindings')!;
    expect(keys.header).toContain('Command=RefreshOrdersCommand');
    expect(expectWellFormed(r)).toEqual([]);
  });
});

describe('AXAML: App.axaml and Styles/Controls.axaml (sample workspace)', () => {
  it('App.axaml: an application keyed by x:Class, keyed brushes, style includes with their avares:// sources', async () => {
    const r = await chunkFile(`${desktop}/App.axaml`);
    expect(outlineLines(r.outline)).toEqual([
      'application App 1-24 key=Contoso.Shop.Desktop.App',
      '  resources Application.Resources 6-17',
      '    resource SolidColorBrush AccentBrush 7-7',
      '    resource SolidColorBrush AccentHoverBrush 8-8',
      '    resource SolidColorBrush SurfaceBrush 9-9',
      '    resource SolidColorBrush SurfaceAltBrush 10-10',
      '    resource SolidColorBrush DividerBrush 11-11',
      '    resource SolidColorBrush MutedTextBrush 12-12',
      '    resource SolidColorBrush SuccessBrush 13-13',
      '    resource SolidColorBrush WarningBrush 14-14',
      '    resource SolidColorBrush DangerBrush 15-15',
      '    resource SolidColorBrush ReorderRowBrush 16-16',
      '  styles Application.Styles 19-23',
      '    include StyleInclude avares://Avalonia.Controls.DataGrid/Themes/Fluent.xaml 21-21',
      '    include StyleInclude avares://Contoso.Shop.Desktop/Styles/Controls.axaml 22-22',
    ]);
    // Small enough to be one chunk: the root's facts carry everything.
    expect(chunkLines(r.chunks)).toEqual(['1-24 application App']);
    expect(r.chunks[0].symbol).toEqual({ kind: 'application', name: 'App', memberKey: 'Contoso.Shop.Desktop.App' });
    expect(r.chunks[0].header).toContain('StyleInclude=avares://Contoso.Shop.Desktop/Styles/Controls.axaml');
    expect(r.chunks[0].header).toContain('x:Key=AccentBrush');
  });

  it('Styles/Controls.axaml: a styles file named after itself, styles by selector, a control theme, packed small styles', async () => {
    const r = await chunkFile(`${desktop}/Styles/Controls.axaml`);
    expect(r.outline!.fileContext).toBeUndefined();
    expect(outlineLines(r.outline)).toEqual([
      'styles Controls 1-127',
      '  property Design.PreviewWith 4-17',
      '    layout Border 5-16',
      '      layout StackPanel 6-15',
      '  resources Styles.Resources 19-31',
      '    theme ControlTheme ToolbarButtonTheme 21-30',
      '      style Style ^:pointerover /template/ ContentPresenter#PART_ContentPresenter 27-29',
      '  style Style Button.accent 34-39',
      '  style Style Button.accent:pointerover /template/ ContentPresenter#PART_ContentPresenter 41-44',
      '  style Style Button.accent:disabled /template/ ContentPresenter#PART_ContentPresenter 46-48',
      '  style Style Button.danger 50-52',
      '  style Style Border.toolbar 55-60',
      '  style Style Border.statusbar 62-65',
      '  style Style TextBlock.h1 68-71',
      '  style Style TextBlock.h2 73-76',
      '  style Style TextBlock.section 78-83',
      '  style Style TextBlock.muted 85-87',
      '  style Style TextBlock.error 89-92',
      '  style Style Border.status-badge 95-100',
      '  style Style Border.status-badge > TextBlock 102-105',
      '  style Style Border.status-badge.awaiting 107-109',
      '  style Style Border.status-badge.paid 111-113',
      '  style Style Border.status-badge.shipped 115-117',
      '  style Style Border.status-badge.closed 119-121',
      '  style Style DataGridRow.reorder 124-126',
    ]);
    expect(chunkLines(r.chunks).map((l) => l.split(' ').slice(0, 2).join(' '))).toEqual([
      '1-18 property',
      '19-32 resources',
      '33-40 style',
      '41-53 members',
      '54-61 style',
      '62-66 style',
      '67-72 style',
      '73-77 style',
      '78-84 style',
      '85-93 members',
      '94-101 style',
      '102-127 members',
    ]);
    const theme = r.chunks.find((c) => c.kind === 'resources')!;
    expect(theme.header).toContain('x:Key=ToolbarButtonTheme');
    expect(theme.header).toContain('Resource=SurfaceAltBrush');
  });
});

describe('AXAML / XAML fixtures', () => {
  it('a view with a merged resource dictionary, keyed data and control templates, styles, bindings and named controls', async () => {
    const r = await chunkFile('fixtures/chunking/xaml/ProductEditorView.axaml');
    expect(outlineLines(r.outline)).toEqual([
      'view ProductEditorView 1-67 key=Contoso.Shop.Desktop.Views.ProductEditorView',
      '  resources UserControl.Resources 9-31',
      '    resources ResourceDictionary 10-30',
      '      include ResourceInclude avares://Contoso.Shop.Desktop/Styles/Brushes.axaml 12-12',
      '      resource x:Double EditorLabelWidth 15-15',
      '      template DataTemplate catalog:ProductVariant 17-22',
      '      template ControlTemplate SectionHeaderTemplate 24-29',
      '  styles UserControl.Styles 33-40',
      '    style Style TextBox.price 34-36',
      '    style Style Button.danger:pointerover 37-39',
      '  layout DockPanel 42-66',
      '    layout StackPanel 43-49',
      '      element Button DeleteButton 44-45 key=Contoso.Shop.Desktop.Views.ProductEditorView.DeleteButton',
      '    layout Grid 51-65',
      '      element TextBox NameBox 53-54 key=Contoso.Shop.Desktop.Views.ProductEditorView.NameBox',
      '      element ListBox VariantsList 62-64 key=Contoso.Shop.Desktop.Views.ProductEditorView.VariantsList',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-32 resources UserControl.Resources', '33-41 styles UserControl.Styles', '42-67 layout DockPanel']);
    expect(r.outline!.fileContext).toEqual([
      'x:Class=Contoso.Shop.Desktop.Views.ProductEditorView',
      'x:DataType=Contoso.Shop.Desktop.ViewModels.ProductEditorViewModel',
    ]);
    const template = findNode(r.outline, (n) => n.name === 'DataTemplate catalog:ProductVariant')!;
    // clr-namespace prefixes resolve to the CLR type, so the fact joins the C# class.
    expect(template.facts).toEqual(['x:Key=VariantRowTemplate', 'DataType=Contoso.Shop.Domain.Catalog.ProductVariant', 'Binding=Sku', 'Resource=EditorLabelWidth', 'CompiledBinding=Price.Amount']);
    expect(findNode(r.outline, (n) => n.name === 'ControlTemplate SectionHeaderTemplate')!.facts).toContain('TemplateBinding=Header');
    const layout = r.chunks[2].header;
    for (const fact of ['x:Name=DeleteButton', 'Command=DeleteProductCommand', 'Command=SaveProductCommand', 'Click=OnSaveClick', 'Binding=Product.Name', 'Binding=Product.Price.Amount', 'Classes=danger', 'Resource=VariantRowTemplate']) {
      expect(layout, fact).toContain(fact);
    }
    expect(r.chunks[0].header).toContain('ResourceInclude=avares://Contoso.Shop.Desktop/Styles/Brushes.axaml');
  });

  it('WPF XAML: styles by x:Key or {x:Type} target, event handlers', async () => {
    const r = await chunkFile('fixtures/chunking/xaml/OrderHistoryWindow.xaml');
    expect(outlineLines(r.outline)).toEqual([
      'view OrderHistoryWindow 1-18 key=Contoso.Shop.Legacy.OrderHistoryWindow',
      '  resources Window.Resources 6-13',
      '    style Style HeaderText 7-9',
      '    style Style DataGridCell 10-12',
      '  element DataGrid HistoryGrid 15-16 key=Contoso.Shop.Legacy.OrderHistoryWindow.HistoryGrid',
    ]);
    expect(chunkLines(r.chunks)).toEqual(['1-18 view OrderHistoryWindow']);
    expect(r.chunks[0].header.split('\n')).toEqual([
      'x:Class=Contoso.Shop.Legacy.OrderHistoryWindow',
      'x:Key=HeaderText',
      'TargetType=TextBlock',
      'TargetType=DataGridCell',
      'x:Name=HistoryGrid',
      'Binding=History',
      'SelectionChanged=OnSelectionChanged',
    ]);
  });

  it('a file without x:Class is named after the file and has no member key', async () => {
    const r = await chunkText('Themes/Brushes.axaml', '<ResourceDictionary xmlns="https://github.com/avaloniaui"\n                    xmlns:x="http://schemas.microsoft.com/winfx/2006/xaml">\n  <SolidColorBrush x:Key="AccentBrush" Color="#2B5CB8" />\n</ResourceDictionary>\n');
    expect(outlineLines(r.outline)).toEqual(['resources Brushes 1-4', '  resource SolidColorBrush AccentBrush 3-3']);
  });
});

describe('XAML binding paths', () => {
  it.each([
    ['{Binding SelectedOrder.Customer.Name}', 'Binding', 'SelectedOrder.Customer.Name'],
    ['{CompiledBinding SelectedOrder.Customer.Name, FallbackValue=\'\'}', 'CompiledBinding', 'SelectedOrder.Customer.Name'],
    ['{Binding Path=Product.Price, Mode=TwoWay}', 'Binding', 'Product.Price'],
    ['{Binding Mode=OneWay, Path=Items[0].Title}', 'Binding', 'Items[0].Title'],
    ['{Binding OrderDetails, Converter={x:Static ObjectConverters.IsNull}}', 'Binding', 'OrderDetails'],
    ['{Binding PlacedAtUtc, StringFormat=\'{}{0:yyyy-MM-dd HH:mm}\'}', 'Binding', 'PlacedAtUtc'],
    ['{x:Bind ViewModel.Title}', 'x:Bind', 'ViewModel.Title'],
    ['{Binding #OrdersGrid.SelectedItem}', 'Binding', '#OrdersGrid.SelectedItem'],
    ['{Binding}', 'Binding', null],
    ['{Binding .}', 'Binding', null],
  ])('%s', (value, ext, p) => {
    expect(bindingPath(value)).toEqual({ ext, path: p });
  });

  it('ignores values that are not bindings', () => {
    expect(bindingPath('{StaticResource AccentBrush}')).toBeNull();
    expect(bindingPath('Binding Foo')).toBeNull();
  });
});

describe('broken XAML', () => {
  const text = fs.readFileSync(path.join(sampleDir, 'src/Contoso.Shop.Desktop/Views/MainWindow.axaml'), 'utf8');

  it('an unclosed element: still a partial outline keyed by x:Class, every line chunked', async () => {
    // Drop the first </Border>: the toolbar border never closes.
    const broken = text.replace('    </Border>\n', '');
    const r = await chunkText('Views/MainWindow.axaml', broken);
    expect(r.parseFallback).toBe(false);
    expect(r.outline!.nodes[0]).toMatchObject({ kind: 'view', name: 'MainWindow', memberKey: 'Contoso.Shop.Desktop.Views.MainWindow' });
    expect(findNode(r.outline, (n) => n.name === 'DataGrid OrdersGrid')).toBeTruthy();
    expect(expectWellFormed(r)).toEqual([]);
  });

  it('a stray end tag, a broken attribute and a truncated file: partial outlines or line windows, never a lost file', async () => {
    const variants = [
      text.replace('<DockPanel>', '<DockPanel>\n  </Grid>'),
      text.replace('Classes="toolbar"', 'Classes="toolbar'),
      text.slice(0, Math.floor(text.length / 2)),
      '<Window x:Class="A.B">\n  <Grid>\n    <Button Content="x">\n  </Grid>\n  <StackPanel>\n  <TextBlock/>\n</Window>\n',
      'not xml at all <<<< >>>',
    ];
    for (const v of variants) {
      const r = await chunkText('Views/Broken.axaml', v);
      expect(r.parseFallback).toBe(false);
      expect(expectWellFormed(r)).toEqual([]);
    }
  });
});

describe('every AXAML file of the sample workspace', () => {
  it('extracts without fallback, keyed by its x:Class where it has one', async () => {
    const dir = path.join(sampleDir, 'src/Contoso.Shop.Desktop');
    const files = fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.axaml'));
    expect(files.length).toBeGreaterThanOrEqual(5);
    for (const f of files) {
      const r = await chunkFile(path.relative(testDir, path.join(dir, f)));
      expect(r.parseFallback, f).toBe(false);
      expect(r.outline, f).not.toBeNull();
      const xClass = /x:Class="([^"]+)"/.exec(r.lines.join('\n'))?.[1];
      if (xClass) expect(r.outline!.nodes[0].memberKey, f).toBe(xClass);
      expect(expectWellFormed(r), f).toEqual([]);
    }
  });
});

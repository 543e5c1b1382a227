// Files too large to parse: one of a `large_file_langs` language up to `large_file_max_bytes` is
// indexed as line windows (its keys are found where they are defined), a larger one is skipped, and
// a query with few hits names the skipped files whose path names it (skipped_files and the hint, in
// the CLI's and the MCP server's text too). Status shows the rule and how many files it windowed.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { sizeVerdict } from '../core/scan/size-policy.ts';
import { validateSettings } from '../core/settings.ts';
import { createStyle, formatSearch, formatStatus } from '../runtimes/cli/format.ts';
import { renderSearch, renderStatus } from '../runtimes/mcp/render.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

/** A theme dictionary of ~600 KiB (over the 512 KiB default) that defines ContentDialogMinWidth near its end. */
function themeDictionary(): string {
  const lines = ['<ResourceDictionary xmlns="https://github.com/avaloniaui" xmlns:x="http://schemas.microsoft.com/winfx/2006/xaml">'];
  for (let i = 0; lines.join('\n').length < 600 * 1024 && i < 100_000; i++) {
    lines.push(`    <SolidColorBrush x:Key="GeneratedFillColor${i}Brush" Color="#FF${(i % 256).toString(16).padStart(2, '0')}8040" Opacity="0.${i % 10}" />`);
  }
  lines.push('    <x:Double x:Key="ContentDialogMinWidth">320</x:Double>', '</ResourceDictionary>');
  return lines.join('\n') + '\n';
}

const THEME = themeDictionary();
const DEFINITION_LINE = THEME.split('\n').findIndex((l) => l.includes('x:Key="ContentDialogMinWidth"')) + 1;

let ws: TmpWorkspace;
let w: HciWorkspace;

beforeAll(async () => {
  ws = await createTmpWorkspace({
    '.hci/settings.toml': 'large_file_max_bytes = 700000\n',
    'src/Styles/Fluentv2.axaml': THEME,
    'src/Controls/Dialog.axaml': '<Border xmlns="https://github.com/avaloniaui" MinWidth="{StaticResource ContentDialogMinWidth}" />\n',
    // Over the hard cap: skipped, and named when a query names it.
    'src/Icons/MaterialIconsTwoTone.json': `{\n${Array.from({ length: 25000 }, (_, i) => `  "icon_${i}": "M${i} 0h24v24H0z"`).join(',\n')}\n}\n`,
  });
  w = await openWorkspace(ws.root);
  await w.index();
}, 120_000);

afterAll(async () => {
  w?.close();
  await ws?.cleanup();
});

describe('large files', () => {
  it('decides by size and language', () => {
    const s = validateSettings({});
    expect(sizeVerdict(s, 'axaml', 100_000)).toBe('whole');
    expect(sizeVerdict(s, 'axaml', 600_000)).toBe('windows');
    expect(sizeVerdict(s, 'markdown', 600_000)).toBe('too_large');
    expect(sizeVerdict(s, 'json', 5 * 1024 * 1024)).toBe('too_large');
    expect(sizeVerdict({ ...s, large_file_max_bytes: 0 }, 'csharp', 600_000)).toBe('too_large');
  });

  it('indexes a file over max_indexed_file_bytes as line windows: its key is found where it is defined', async () => {
    expect(THEME.length).toBeGreaterThan(512 * 1024);
    const r = await w.search({ query: 'ContentDialogMinWidth', limit: 10 });
    const def = r.hits.find((h) => h.path === 'src/Styles/Fluentv2.axaml');
    expect(def, JSON.stringify(r.hits.map((h) => h.path))).toBeDefined();
    expect(def!.start_line).toBeLessThanOrEqual(DEFINITION_LINE);
    expect(def!.end_line).toBeGreaterThanOrEqual(DEFINITION_LINE);
    expect(def!.end_line - def!.start_line).toBeLessThan(110);
    expect(r.hits.some((h) => h.path === 'src/Controls/Dialog.axaml')).toBe(true);

    const status = await w.status();
    expect(status.large_files).toEqual({ windowed: 1, over_bytes: 512 * 1024, max_bytes: 700000, langs: ['csharp', 'axaml', 'xaml', 'json'] });
    expect(status.skipped.too_large).toBe(1);
    expect(status.files_by_lang.axaml).toBe(2);
    const line = '1 file over 512 KiB indexed as line windows (csharp, axaml, xaml, json up to 684 KiB); larger ones skipped';
    expect(formatStatus(status, createStyle(false))).toContain(line);
    expect(renderStatus({ ...status, watcher: { state: 'off' }, tasks: [] } as never)).toContain(`large files: ${line}`);
  });

  it('names the skipped files whose path names a query with few hits, on every surface', async () => {
    const r = await w.search({ query: 'MaterialIconsTwoTone icons' });
    expect(r.hits.length).toBeLessThan(10);
    expect(r.skipped_files).toEqual([{ path: 'src/Icons/MaterialIconsTwoTone.json', reason: 'too_large' }]);
    expect(r.hint).toContain('not in the index but named like the query: src/Icons/MaterialIconsTwoTone.json (too large)');
    expect(formatSearch(r, createStyle(false))).toContain('src/Icons/MaterialIconsTwoTone.json (too large)');
    expect(renderSearch(r)).toContain('src/Icons/MaterialIconsTwoTone.json (too large)');
    // A query the path does not name gets no such note.
    const other = await w.search({ query: 'GeneratedFillColor12Brush' });
    expect(other.skipped_files).toBeUndefined();
    expect(other.hint ?? '').not.toContain('not in the index');
  });
});

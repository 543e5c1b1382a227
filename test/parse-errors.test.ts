// Files parsed with syntax the grammar does not know (C# 14 here): the run's summary and every
// answer's index info count them (`parse_errors`), the CLI and MCP renderings say so, the members
// after the unknown syntax are in the index (resolve finds them), and a fixed file stops counting.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { openWorkspace } from '../runtimes/node/index.ts';
import type { HciWorkspace } from '../core/workspace.ts';
import { createStyle, formatIndexSummary, formatSearch, formatStatus } from '../runtimes/cli/format.ts';
import { freshnessLine, renderSearch } from '../runtimes/mcp/render.ts';
import { createTmpWorkspace, type TmpWorkspace } from './helpers/tmp-workspace.ts';

// The unknown syntax sits in an expression-bodied member: a C# parse leaves block bodies out
// (core/chunk/lang/csharp-bodies.ts), so what is inside one is never met and never counted.
const infoBar = (expression: string) => `namespace Fa.Controls;

public partial class InfoBar : ContentControl
{
    protected override void OnApplyTemplate(TemplateAppliedEventArgs e)
    {
        base.OnApplyTemplate(e);
    }

    private void Detach() => ${expression}

    private void OnCloseButtonClick(object sender, RoutedEventArgs e) => IsOpen = false;

    private Button _closeButton;
}
`;

let ws: TmpWorkspace;
let w: HciWorkspace;

beforeAll(async () => {
  ws = await createTmpWorkspace({
    'src/InfoBar.cs': infoBar('_closeButton?.Click -= OnCloseButtonClick;'),
    'src/Clean.cs': 'namespace Fa.Controls;\npublic class Clean { public void Close() { } }\n',
  });
  w = await openWorkspace(ws.root);
});

afterAll(async () => {
  w?.close();
  await ws?.cleanup();
});

describe('parse_errors', () => {
  it('counts the files parsed with errors in the run, in every answer, and in the CLI and MCP text', async () => {
    const summary = await w.index();
    expect(summary.parse_errors).toBe(1);
    expect(summary.parse_fallback).toBe(0);
    expect(formatIndexSummary(summary)).toContain('parsed with syntax errors: 1');

    const r = await w.search({ query: 'OnCloseButtonClick' });
    expect(r.index!.parse_errors).toBe(1);
    const style = createStyle(false);
    expect(formatSearch(r, style)).toContain('2 files, 1 parsed with errors');
    expect(renderSearch(r)).toContain('1 parsed with syntax errors');

    const status = await w.status();
    expect(status.index!.parse_errors).toBe(1);
    expect(formatStatus(status, style)).toMatch(/parse\s+1 file with syntax the grammar does not know/);
    expect(freshnessLine(status.index)).toContain('1 parsed with syntax errors');

    // The member after the unknown statement is a symbol of its own, not part of one window.
    const found = await w.resolve({ name: 'OnCloseButtonClick' });
    expect(found.locations.map((l) => `${l.kind} ${l.member_key} ${l.start_line}-${l.end_line}`)).toEqual(['method Fa.Controls.InfoBar.OnCloseButtonClick(object,RoutedEventArgs) 12-12']);
  });

  it('stops counting a file once the grammar knows all of it', async () => {
    await fs.writeFile(path.join(ws.root, 'src/InfoBar.cs'), infoBar('_closeButton.Click -= OnCloseButtonClick;'));
    const summary = await w.index();
    expect(summary.parse_errors).toBe(0);
    expect((await w.status()).index!.parse_errors).toBe(0);
    expect(formatSearch(await w.search({ query: 'OnCloseButtonClick' }), createStyle(false))).not.toContain('parsed with errors');
  });
});

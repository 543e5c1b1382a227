// `hci demo` / `npm start`: indexes the bundled sample workspace (a small .NET solution) and runs a
// few example searches, to show in half a minute what hci does. Owns the example queries only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openWorkspace } from './workspace.ts';
import { createStyle, formatIndexSummary, formatSearch } from '../cli/format.ts';

const EXAMPLES: Array<{ query: string; why: string }> = [
  { query: 'GetCatalogItemsAsync', why: 'an exact C# identifier' },
  { query: 'catalog items', why: 'split identifiers: finds GetCatalogItemsAsync, CatalogItemDto…' },
  { query: 'where is the order discount calculated', why: 'a natural-language question (stop words dropped)' },
  { query: 'MaxItemsPerOrder ext:json', why: 'a config key, filtered to JSON files' },
  { query: '"@page" path:src/Contoso.Shop.Web/Components/Pages', why: 'Razor routes under one folder' },
  { query: 'OrdersGrid', why: 'an Avalonia x:Name in AXAML' },
];

/** The bundled sample workspace, found relative to this file in both source and dist layouts. */
export function sampleWorkspacePath(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    const candidate = path.join(dir, 'test', 'sample-workspace');
    if (fs.existsSync(candidate)) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('the bundled sample workspace (test/sample-workspace) was not found');
}

export async function runDemo(root?: string): Promise<void> {
  const target = root ? path.resolve(root) : sampleWorkspacePath();
  const out = (s = '') => process.stdout.write(`${s}\n`);
  const style = createStyle(process.stdout.isTTY === true && !process.env.NO_COLOR);
  const { bold, dim } = style;
  out(bold(`hci demo — indexing ${target}`));
  const ws = await openWorkspace(target);
  try {
    const summary = await ws.index({});
    out(formatIndexSummary(summary));
    for (const ex of EXAMPLES) {
      out();
      out(`${bold(`$ hci search ${ex.query.includes(' ') ? `'${ex.query}'` : ex.query} -k 3`)}  ${dim(`# ${ex.why}`)}`);
      out(formatSearch(await ws.search({ query: ex.query, limit: 3 }), style));
    }
    out();
    out(dim(`Next: \`npx hci index <your repo>\`, then \`npx hci search <words> --root <your repo>\` (see README.md).`));
  } finally {
    ws.close();
  }
}

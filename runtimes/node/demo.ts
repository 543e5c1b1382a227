// `hci demo` / `npm start`: indexes the bundled sample workspace (a small .NET solution) and runs a
// few example searches, to show in half a minute what hci does. From a source checkout the sample is
// test/sample-workspace, indexed in place; an installed package ships it as dist/sample-workspace.zip
// (scripts/build-assets.mjs), unpacked into a temporary folder that is removed afterwards. Owns the
// example queries and finding the sample.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { unzipSync } from 'fflate';
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

const here = path.dirname(fileURLToPath(import.meta.url));

/** test/sample-workspace of a source checkout (this module in runtimes/node/ or dist/runtimes/node/), or null. */
export function checkoutSamplePath(): string | null {
  for (const up of ['../..', '../../..']) {
    const candidate = path.resolve(here, up, 'test/sample-workspace');
    if (fs.existsSync(path.join(candidate, 'Contoso.Shop.slnx'))) return candidate;
  }
  return null;
}

/** The zipped sample an installed package ships (this module in dist/runtimes/node/), or null. */
export function packagedSampleZip(): string | null {
  const zip = path.resolve(here, '../../sample-workspace.zip');
  return fs.existsSync(zip) ? zip : null;
}

/** Unpacks the zipped sample into a new temporary folder and returns it. */
export function unpackSample(zip: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-demo-'));
  for (const [rel, bytes] of Object.entries(unzipSync(fs.readFileSync(zip)))) {
    const target = path.join(dir, rel);
    if (!target.startsWith(dir + path.sep)) continue; // the package's own zip; still never write outside
    if (rel.endsWith('/')) continue;
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, bytes);
  }
  return dir;
}

export async function runDemo(root?: string): Promise<void> {
  const out = (s = '') => process.stdout.write(`${s}\n`);
  const style = createStyle(process.stdout.isTTY === true && !process.env.NO_COLOR);
  const { bold, dim } = style;
  let target = root ? path.resolve(root) : checkoutSamplePath();
  let unpacked: string | null = null;
  if (!target) {
    const zip = packagedSampleZip();
    if (!zip) throw new Error('the bundled sample workspace (test/sample-workspace or dist/sample-workspace.zip) was not found');
    target = unpacked = unpackSample(zip);
  }
  out(bold(`hci demo — indexing ${target}${unpacked ? ' (the bundled sample, unpacked here for the demo)' : ''}`));
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
    if (unpacked) fs.rmSync(unpacked, { recursive: true, force: true });
  }
}

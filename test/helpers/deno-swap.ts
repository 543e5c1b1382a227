// Run by Deno (read on the workspace, the outside folder and node_modules; write on the workspace):
//   deno run <flags> test/helpers/deno-swap.ts '<json>'   json = { root, swaps: Swap[], marker }
// Indexes the workspace through the Deno file source wrapped by swap-fs.ts (each swap happens just
// before its path's first read), then searches for the outside files' marker and prints
// { summary, swapped, hits, direct } as JSON; `direct` is what a plain read of a swapped path gave.
import { HciWorkspace } from '../../core/workspace.ts';
import { createDenoWorkspaceFs } from '../../runtimes/deno/workspace-fs.ts';
import { createDenoIndexStorage } from '../../runtimes/deno/deno-storage.ts';
import { deno } from '../../runtimes/deno/deno-api.ts';
import { swappingFs, type Swap } from './swap-fs.ts';

type DenoWrite = { removeSync(p: string): void; renameSync(a: string, b: string): void; symlinkSync(t: string, p: string): void };
const D = (globalThis as unknown as { Deno: DenoWrite }).Deno;
const cfg = JSON.parse(deno().args[0]) as { root: string; swaps: Swap[]; marker: string };
const plain = createDenoWorkspaceFs(cfg.root);
const fs = swappingFs(plain, cfg.root, cfg.swaps, { remove: (p) => D.removeSync(p), rename: (a, b) => D.renameSync(a, b), symlink: (t, p) => D.symlinkSync(t, p) });
const ws = await HciWorkspace.open({ fs, storage: createDenoIndexStorage(cfg.root) });
try {
  const summary = await ws.index();
  const hits = (await ws.search({ query: cfg.marker })).hits.map((h) => ({ path: h.path, snippet: h.snippet }));
  const direct = await plain.readFile(cfg.swaps[0].rel).then(
    (b) => ({ ok: true, text: new TextDecoder().decode(b) }),
    (e: { code?: string; message: string }) => ({ ok: false, code: e.code, message: e.message }),
  );
  console.log(JSON.stringify({ summary, swapped: fs.swapped, hits, direct }));
} finally {
  ws.close();
}

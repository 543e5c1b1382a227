// Test helper: a workspace indexed and packed (hci pack, under Node) as a published index named
// `index.sqlite` (its manifest beside it), for the remote tests to serve (range-server.ts); and the
// packed fixture of one declaring file among 40 that merely hold its word (chunk-files, declarations-lookup);
// a copy of an index without its keyword index (declarations-lookup, declarations-order).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PackManifest } from '../../core/index/pack.ts';
import { openWorkspace } from '../../runtimes/node/workspace.ts';
import { nodePackTarget } from '../../runtimes/node/pack-target.ts';
import { createTmpWorkspace, tmpDir, type TmpWorkspace, type WorkspaceFiles } from './tmp-workspace.ts';
import type { SqliteEngine } from '../../core/sqlite/engine.ts';

/** Indexes `root` and packs its index into `file`; returns the manifest. */
export async function indexAndPack(root: string, file: string, opts: { pageSize?: number } = {}): Promise<PackManifest> {
  const ws = await openWorkspace(root);
  try {
    await ws.index();
    return await ws.pack(nodePackTarget(file), { fileName: 'index.sqlite', ...opts });
  } finally {
    ws.close();
  }
}

/** Member methods `<prefix>0 … <prefix><n-1>`, each a four-line body over the parameter `param`. */
export function memberMethods(prefix: string, n: number, param = 'x'): string {
  return Array.from({ length: n }, (_, j) => `    public int ${prefix}${j}(int ${param})\n    {\n        return ${param} + ${j};\n    }\n\n`).join('');
}

/** A packed fixture: its workspace, the live index in it and the packed copy outside it. */
export interface PackedPanels {
  ws: TmpWorkspace;
  live: string;
  packed: string;
  cleanup(): Promise<void>;
}

/**
 * A workspace of `Controls/Factory.cs` (the caller's text) and `panels` classes `Gen/ButtonPanelN.cs`
 * of 12 members each (`Width0(param)` …): their member chunks' symbol column holds "button". Indexed,
 * and packed at 4 KiB pages into a folder of its own.
 */
export async function packedButtonPanels(factory: string, opts: { panels?: number; param?: string; prefix: string }): Promise<PackedPanels> {
  const files: WorkspaceFiles = { 'Controls/Factory.cs': factory };
  for (let i = 0; i < (opts.panels ?? 40); i++) files[`Gen/ButtonPanel${i}.cs`] = `namespace Demo.Gen;\n\npublic class ButtonPanel${i}\n{\n${memberMethods('Width', 12, opts.param)}}\n`;
  const ws = await createTmpWorkspace(files, `${opts.prefix}-`);
  const out = tmpDir(`${opts.prefix}-out-`);
  const packed = path.join(out, 'index.sqlite');
  await indexAndPack(ws.root, packed, { pageSize: 4096 });
  return {
    ws, packed, live: path.join(ws.root, '.hci', 'index.sqlite'),
    async cleanup() {
      await ws.cleanup();
      fs.rmSync(out, { recursive: true, force: true });
    },
  };
}

/** A copy of an index file at `copy` with its keyword index emptied (a lookup that needs no FTS5 match is then all there is). */
export function withoutKeywordIndex(engine: SqliteEngine, file: string, copy: string): string {
  fs.copyFileSync(file, copy);
  const db = nodePackTarget(copy).open(copy, engine);
  try {
    db.exec("INSERT INTO chunks_fts(chunks_fts) VALUES('delete-all')");
  } finally {
    db.close();
  }
  return copy;
}

// The official SQLite build under Deno: its wasm bytes read here, with Deno.readFile, and handed to
// the module's init as `wasmBinary`, so a refused read is hci's `permission_needed` naming the
// --allow-read to add, before the library's own loader would print a stack trace and abort. Owns only
// that; the engine seam is core/sqlite/engine.ts.
import type { EngineLoader } from '../../core/sqlite/engine.ts';
import type { Sqlite3Static } from '../../core/sqlite/engine.ts';
import { readInstalledFile } from './deno-api.ts';

export const denoEngineLoader: EngineLoader = async () => {
  const wasm = await readInstalledFile(new URL(import.meta.resolve('@sqlite.org/sqlite-wasm/sqlite3.wasm')), 'its SQLite engine');
  const { default: init } = await import('@sqlite.org/sqlite-wasm');
  const initModule = init as unknown as (moduleArg: object) => Promise<Sqlite3Static>;
  const sqlite3 = await initModule({ print: () => {}, printErr: () => {}, wasmBinary: wasm });
  return { sqlite3, label: `sqlite-wasm ${sqlite3.version.libVersion}`, hasVectors: false };
};

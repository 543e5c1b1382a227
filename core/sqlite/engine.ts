// The one seam where a SQLite WebAssembly build is loaded. Owns choosing and initialising the build;
// everything else in the core talks to the `SqliteEngine` it returns. A second build (the sqlite-vec
// one, for the semantic channel) plugs in by passing another loader to `loadEngine`.
import type { Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';

export type { Database, Sqlite3Static };

export interface SqliteEngine {
  readonly sqlite3: Sqlite3Static;
  /** Which build this is, for status output ("sqlite-wasm 3.54.1"). */
  readonly label: string;
  /** Whether vec0 (sqlite-vec) virtual tables are available in this build. */
  readonly hasVectors: boolean;
}

export type EngineLoader = () => Promise<SqliteEngine>;

/** The official @sqlite.org/sqlite-wasm build: FTS5, no extension loading, no vectors. */
export const officialEngineLoader: EngineLoader = async () => {
  const { default: init } = await import('@sqlite.org/sqlite-wasm');
  const initModule = init as unknown as (moduleArg: object) => Promise<Sqlite3Static>;
  const sqlite3 = await initModule({ print: () => {}, printErr: () => {} });
  return { sqlite3, label: `sqlite-wasm ${sqlite3.version.libVersion}`, hasVectors: false };
};

const cache = new Map<EngineLoader, Promise<SqliteEngine>>();

/** Loads (once per loader and process) and returns a SQLite engine. */
export function loadEngine(loader: EngineLoader = officialEngineLoader): Promise<SqliteEngine> {
  let p = cache.get(loader);
  if (!p) {
    p = loader();
    cache.set(loader, p);
    p.catch(() => cache.delete(loader));
  }
  return p;
}

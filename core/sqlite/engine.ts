// The one seam where a SQLite WebAssembly build is loaded. Owns choosing and initialising the build;
// everything else in the core talks to the `SqliteEngine` it returns. A second build (the sqlite-vec
// one, for the semantic channel) plugs in by passing another loader to `loadEngine`.
import type { BindableValue, Database, Sqlite3Static } from '@sqlite.org/sqlite-wasm';
import { HciError } from '../platform.ts';

export type { BindableValue, Database, Sqlite3Static };

export interface SqliteEngine {
  readonly sqlite3: Sqlite3Static;
  /** Which build this is, for status output ("sqlite-wasm 3.54.1"). */
  readonly label: string;
  /** Whether vec0 (sqlite-vec) virtual tables are available in this build. */
  readonly hasVectors: boolean;
}

export type EngineLoader = () => Promise<SqliteEngine>;

/**
 * Initialises the official @sqlite.org/sqlite-wasm build with every channel it prints through kept
 * off the console: Emscripten's print/printErr, and the library's own config.log/warn/error/debug
 * (set before init for start-up messages, and again after, where oo1 looks them up at call time —
 * e.g. a failed step warns "sqlite3_step() rc= 11 … SQL = …" before it throws). Each such message
 * accompanies an exception the caller turns into an HciError (index_corrupt, index_busy, …), so
 * dropping it loses nothing; a failing start-up is itself an HciError carrying what was printed.
 * `extra`: more module arguments (a browser's locateFile).
 */
export async function initQuietly(extra: object = {}): Promise<Sqlite3Static> {
  const { default: init } = await import('@sqlite.org/sqlite-wasm');
  const initModule = init as unknown as (moduleArg: object) => Promise<Sqlite3Static>;
  const printed: string[] = [];
  const keep = (...args: unknown[]) => void (printed.length < 20 && printed.push(args.map(String).join(' ')));
  const quiet = { log: keep, warn: keep, error: keep, debug: keep };
  const g = globalThis as { sqlite3ApiConfig?: object };
  const before = g.sqlite3ApiConfig;
  g.sqlite3ApiConfig = { ...before, ...quiet };
  let sqlite3: Sqlite3Static;
  try {
    sqlite3 = await initModule({ print: keep, printErr: keep, ...extra });
  } catch (e) {
    throw new HciError('engine_failed', `SQLite (WebAssembly) did not start: ${(e as Error)?.message ?? e}${printed.length ? ` (${printed.join('; ')})` : ''}`, 'reinstall hci (npm ci): its sqlite3.wasm may be missing or damaged');
  } finally {
    if (before === undefined) delete g.sqlite3ApiConfig;
    else g.sqlite3ApiConfig = before;
  }
  Object.assign((sqlite3 as unknown as { config: object }).config, { log: () => {}, warn: () => {}, error: () => {}, debug: () => {} });
  return sqlite3;
}

/** The official @sqlite.org/sqlite-wasm build: FTS5, no extension loading, no vectors. */
export const officialEngineLoader: EngineLoader = async () => {
  const sqlite3 = await initQuietly();
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

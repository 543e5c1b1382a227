// The index's meta table (key → value): reading it whole, the current generation, setting keys, advancing the generation.
// Its own module so that what only reads an index (opening, searching: workspace.ts, searcher.ts,
// the browser Worker's start) does not load the writer's row-level SQL; which keys exist and what
// they mean is their owners' (schema.ts, the indexer, literal-index.ts, vector/store.ts, …).
import type { Database } from '../sqlite/engine.ts';

/** The index's current generation as an SQL expression ('' before the first commit), to select or compare inside a statement. */
export const CURRENT_GENERATION = "coalesce((SELECT value FROM meta WHERE key = 'generation'), '')";

/** The index's current generation ('' before the first commit). */
export function currentGeneration(db: Database): string {
  return String(db.selectValue(`SELECT ${CURRENT_GENERATION}`));
}

export function readMeta(db: Database): Record<string, string> {
  const out: Record<string, string> = {};
  for (const r of db.selectObjects('SELECT key, value FROM meta') as Array<{ key: string; value: string }>) out[r.key] = r.value;
  return out;
}

export function setMeta(db: Database, values: Record<string, string | number>): void {
  const st = db.prepare('INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value');
  try {
    for (const [k, v] of Object.entries(values)) st.bind([k, String(v)]).stepReset();
  } finally {
    st.finalize();
  }
}

/** Advances and returns the generation: every committed change to the index gets a new one. */
export function nextGeneration(db: Database): number {
  const g = Number(db.selectValue("SELECT value FROM meta WHERE key = 'generation'") ?? 0) + 1;
  setMeta(db, { generation: g });
  return g;
}

// Whether an index file is sound enough to use. Cheap checks, run on every open (store.ts): every
// table, index and FTS shadow table of the current format is there with its columns (schema.ts's
// DDL), and the meta values every reader and writer relies on are well formed (a generation, the
// versions, the build state). The page check — SQLite's quick_check over every page, ~0.3-0.4 s
// for FluentAvalonia's 5.8 MB — is for `status` (once per change of the file's bytes: the sidecar
// health.json remembers the last sound file's stamp) and before a --full rebuild. Owns the checks
// and how a problem is worded; what to do about one (refuse, or move the file aside and rebuild)
// belongs to the callers.
import type { Database } from '../sqlite/engine.ts';
import { HciError } from '../platform.ts';
import { currentSchema, type SchemaObject } from './schema.ts';
import type { IndexStorage } from './storage.ts';
import { ftsStructure } from './fts-structure.ts';

let expected: SchemaObject[] | null = null;

const META_SHAPES: Record<string, RegExp> = {
  format_version: /^\d+$/,
  analyzer_version: /^\d+$/,
  generation: /^\d+$/,
  build_state: /^(?:empty|partial|complete)$/,
};
const OPTIONAL_META_SHAPES: Record<string, RegExp> = {
  literal_index: /^(?:on|off|filling:\d+)$/,
  vector_generation: /^\d+$/,
  fts_churn_bytes: /^\d+$/,
};

/** What is missing or malformed in the file's schema and meta (empty: sound). Reads only the schema and the meta table. */
export function structureProblems(db: Database): string[] {
  expected ??= currentSchema();
  const problems: string[] = [];
  const present = new Map<string, string>();
  for (const r of db.selectObjects("SELECT type, name FROM sqlite_master WHERE type IN ('table', 'index')") as Array<{ type: string; name: string }>) present.set(r.name, r.type);
  const columns = tableColumns(db, expected.filter((o) => o.columns && present.get(o.name) === o.type).map((o) => o.name));
  for (const o of expected) {
    if (present.get(o.name) !== o.type) {
      problems.push(`the ${o.type} ${o.name} is missing`);
      continue;
    }
    for (const shadow of o.shadows ?? []) if (present.get(shadow) !== 'table') problems.push(`the table ${shadow} (of ${o.name}) is missing`);
    if (o.columns) {
      const cols = columns.get(o.name) ?? [];
      if (cols.join(',') !== o.columns.join(',')) problems.push(`the table ${o.name} has columns (${cols.join(', ')}), not (${o.columns.join(', ')})`);
    }
  }
  for (const o of expected) {
    if (o.shadows && present.get(`${o.name}_data`) === 'table' && db.selectValue(`SELECT 1 FROM ${o.name}_data WHERE id = 10`) !== undefined && !ftsStructure(db, o.name)) {
      problems.push(`the structure record of ${o.name} is not readable`);
    }
  }
  if (present.get('meta') !== 'table') return problems;
  const meta = new Map<string, unknown>();
  for (const r of db.selectObjects('SELECT key, value FROM meta') as Array<{ key: string; value: unknown }>) meta.set(r.key, r.value);
  for (const [key, shape] of Object.entries(META_SHAPES)) {
    const v = meta.get(key);
    if (v === undefined) problems.push(`meta ${key} is missing`);
    else if (!shape.test(String(v))) problems.push(`meta ${key} is not well formed (${JSON.stringify(String(v).slice(0, 40))})`);
  }
  for (const [key, shape] of Object.entries(OPTIONAL_META_SHAPES)) {
    const v = meta.get(key);
    if (v !== undefined && !shape.test(String(v))) problems.push(`meta ${key} is not well formed (${JSON.stringify(String(v).slice(0, 40))})`);
  }
  return problems;
}

/**
 * The columns of each table, in order, read by one statement: a statement per table was a third of
 * opening an index on every open (a reader's first search pays it; ~2 ms of ten prepares on
 * Avalonia in a warm process, more in a new one).
 */
function tableColumns(db: Database, tables: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  if (!tables.length) return out;
  const rows = db.selectArrays('SELECT t.value, p.name FROM json_each(?) t, pragma_table_info(t.value) p ORDER BY t.key, p.cid', [JSON.stringify(tables)]) as Array<[string, unknown]>;
  for (const [table, column] of rows) {
    const list = out.get(table);
    if (list) list.push(String(column));
    else out.set(table, [String(column)]);
  }
  return out;
}

/** SQLite's quick_check over every page (at most `max` problems; empty: sound). */
export function pageProblems(db: Database, max = 3): string[] {
  const out = (db.selectValues(`PRAGMA quick_check(${max})`) as unknown[]).map(String);
  return out.length === 1 && out[0] === 'ok' ? [] : out;
}

/** The error a damaged index answers with: what is wrong (at most three problems) and the remedy. */
export function damaged(location: string, problems: readonly string[]): HciError {
  const shown = problems.slice(0, 3).join('; ') + (problems.length > 3 ? `; and ${problems.length - 3} more` : '');
  return new HciError('index_corrupt', `the index at ${location} is damaged: ${shown}`, 'run `hci index --full` to rebuild it');
}

const HEALTH_SIDECAR = 'health.json';

/**
 * The page check for `status`: skipped for a published (read-only, remote) index and when the file's
 * bytes are those last found sound (its stamp, where the runtime gives one), else run and, when
 * sound, remembered. Problems, or empty.
 */
export async function checkedPages(store: { storage: IndexStorage; read<T>(fn: (db: Database) => T): Promise<T> }): Promise<string[]> {
  // A published index is not checked: every page it reads is an HTTP request, and quick_check reads
  // them all (opening Avalonia's in the explorer downloaded its 27.6 MB in 1,698 requests); a damaged
  // page shows as an error at the read that meets it.
  if (store.storage.readOnly) return [];
  const stamp = store.storage.fileStamp?.() ?? null;
  if (stamp !== null) {
    try {
      if ((JSON.parse(store.storage.readSidecar(HEALTH_SIDECAR) ?? '{}') as { sound?: string }).sound === stamp) return [];
    } catch {
      // unreadable: check again
    }
  }
  const problems = await store.read((db) => pageProblems(db));
  if (!problems.length && stamp !== null && store.storage.fileStamp?.() === stamp) {
    try {
      store.storage.writeSidecar(HEALTH_SIDECAR, JSON.stringify({ sound: stamp, checked_at: new Date().toISOString() }));
    } catch {
      // a read-only .hci folder: the check runs again next time
    }
  }
  return problems.map((p) => `SQLite's page check: ${p}`);
}

// A record of one index generation, in a table of its own: one row (generation, data) holding a JSON
// value — as text where an indexing pass writes it (a local reader pays no bytes, and deflating cost
// the pass more than inflating saved a search), deflated in a pack (a remote reader pays bytes). A
// reader trusts a record only at the generation it names: anything that writes the index bumps the
// generation, so a record a later write did not renew is not used. The table is made once and its
// row replaced (a schema change makes every open connection prepare its statements again).
// Owns the table's shape, the two encodings and the generation check; what a record holds, and when
// it is written, is its owner's (file-list.ts, chunk-files.ts, search/variants.ts, search/learned-terms.ts).
import type { Database } from '../sqlite/engine.ts';
import type { DeflateCodec } from './file-data.ts';
import { CURRENT_GENERATION as GENERATION } from './meta.ts';

const NO_DICTIONARY = new Uint8Array(0);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

function hasTable(db: Database, table: string): boolean {
  return db.selectValue("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [table]) !== undefined;
}

/** Whether `table` holds a record of the current generation (the table is made when missing). */
export function recordIsCurrent(db: Database, table: string): boolean {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table}(generation TEXT NOT NULL, data BLOB NOT NULL)`);
  return db.selectValue(`SELECT 1 FROM ${table} WHERE generation = ${GENERATION}`) !== undefined;
}

/** Replaces the record of `table` with `json` for the current generation: as text, or deflated with `codec` (a pack). */
export function writeRecord(db: Database, table: string, json: string, codec?: DeflateCodec): void {
  db.exec(`CREATE TABLE IF NOT EXISTS ${table}(generation TEXT NOT NULL, data BLOB NOT NULL)`);
  db.exec(`DELETE FROM ${table}`);
  db.exec({ sql: `INSERT INTO ${table}(generation, data) VALUES (${GENERATION}, ?)`, bind: [codec ? codec.deflateRaw(encoder.encode(json), NO_DICTIONARY) : json] });
}

/** Deflates a record kept as text (in a pack, inside its transaction); nothing when there is none. */
export function deflateRecord(db: Database, table: string, codec: DeflateCodec): void {
  if (!hasTable(db, table)) return;
  const data = db.selectValue(`SELECT data FROM ${table} LIMIT 1`);
  if (typeof data !== 'string') return;
  db.exec({ sql: `UPDATE ${table} SET data = ?`, bind: [codec.deflateRaw(encoder.encode(data), NO_DICTIONARY)] });
}

/** The JSON of the record of the current generation (text or deflated), else null (no table, no record, or another generation's). */
export function readRecord(db: Database, table: string, codec: DeflateCodec): string | null {
  if (!hasTable(db, table)) return null;
  const data = db.selectValue(`SELECT data FROM ${table} WHERE generation = ${GENERATION} LIMIT 1`);
  if (typeof data === 'string') return data;
  return data instanceof Uint8Array ? decoder.decode(codec.inflateRaw(data, NO_DICTIONARY)) : null;
}

// The index's symbol names as a host's idle work reads them to choose what to search ahead of the
// user (runtimes/browser/warm-up.ts): the first one indexed, the most frequent, and the letters they
// begin with by use. Owns these reads; what is done with them is the host's.
import type { Database } from '../sqlite/engine.ts';

/** The first chunk's symbol name that is an identifier (null: none). */
export function firstSymbolName(db: Database): string | null {
  const name = db.selectValue("SELECT symbol_name FROM chunks WHERE symbol_name GLOB '[A-Za-z_]*' ORDER BY id LIMIT 1");
  return typeof name === 'string' && name ? name : null;
}

/** The most frequent identifier symbol names of at least `minLength` characters, most chunks first (then by name). */
export function frequentSymbolNames(db: Database, opts: { minLength: number; limit: number }): string[] {
  return db.selectValues(
    `SELECT symbol_name FROM chunks WHERE symbol_name GLOB '[A-Za-z_]*' AND length(symbol_name) >= ?
     GROUP BY symbol_name ORDER BY count(*) DESC, symbol_name LIMIT ?`,
    [opts.minLength, opts.limit],
  ) as string[];
}

/** The letters symbol names begin with (lower-case a–z), those more names begin with first. */
export function symbolInitials(db: Database): string[] {
  return db.selectValues(`SELECT lower(substr(symbol_name, 1, 1)) AS c FROM chunks WHERE c BETWEEN 'a' AND 'z' GROUP BY c ORDER BY count(*) DESC, c`) as string[];
}

// What a search asks of a file before it decodes it, recorded per file apart from its blob (table
// `file_facts`): the names its outline declares (the distinct lower-cased names of its declaring
// symbols — a type, a member, a Razor component: the kinds below, which declarations.ts tiers —
// each between line breaks) and whether any of its stored lines is dead (dead-code.ts: commented-out
// code, `#if false`: few files have any). A row per file that has either.
// Declarations of a query's name were looked for in the outlines of thirty-odd files (the
// candidates' and those named after it), each decoded (its text to test for the name, then its
// meta for the outline), and rerank and declarations scanned every file they read for dead lines
// (bench/results/search-warm-warm10.md). With the record, only the files it says may
// declare the name are decoded for declarations, and a file without dead lines is not scanned; what
// is found — and so every answer — is what reading and scanning all of them finds (a file the record
// leaves out has no declaring symbol of that lower-cased name; a file it does not mark has no dead line).
// The writer keeps a file's row with its other rows (core/index/writer.ts), the indexer carries the
// record from one generation to the next in each of its write transactions when the record was
// current before it (meta `file_facts` names the generation and FACTS_VERSION), and a whole-tree pass
// that finds it not current (an older index, a write by other code, other rules) fills it again from
// the stored files. A search trusts it only at the generation it names, on a local index; packs
// leave it out. Otherwise declarations and dead lines read every file, as before. Owns the table,
// the record's generation, the kinds that declare and the session's dead-line maps; what a
// declaration is worth is declarations.ts's and rerank.ts's, which lines are dead dead-code.ts's.
import type { Database } from '../sqlite/engine.ts';
import type { OutlineSymbol } from '../contract/outline.ts';
import type { OutlineNode } from '../chunk/outline.ts';
import type { StoredFile } from '../index/file-data.ts';
import { readStoredFile, type DeflateCodec } from '../index/file-data.ts';
import { setMeta } from '../index/meta.ts';
import { deadLines } from './dead-code.ts';

/** Kinds that declare a type-level name: the answer to a query that names a type. */
const TYPE_LEVEL = new Set(['class', 'interface', 'record', 'struct', 'enum', 'delegate', 'type', 'function', 'module']);
/** Kinds that declare a member (a method's name, a property's). Constructors are left out: their type is the answer. */
const MEMBER_LEVEL = new Set(['method', 'property', 'event', 'field', 'local_function', 'indexer', 'enum_member', 'constant']);
/** Razor components and pages: a type too, declared by the file (after the code's own class). */
const FILE_LEVEL = new Set(['component', 'page', 'view']);

/** The level of a declaring kind, null for a kind that declares no name a query asks for (a namespace, a constructor, a key). */
export function levelOf(kind: string): 'type' | 'member' | 'file' | null {
  if (TYPE_LEVEL.has(kind)) return 'type';
  if (FILE_LEVEL.has(kind)) return 'file';
  if (MEMBER_LEVEL.has(kind)) return 'member';
  return null;
}

/**
 * The rules the record was made with: bump it when the kinds above or dead-code.ts's deadLines change
 * (a record of other rules is not current: the next whole-tree pass fills it again).
 */
const FACTS_VERSION = 1;

export const FILE_FACTS_TABLE = 'file_facts';
/** The meta key naming the generation (and FACTS_VERSION) the table is complete for. */
export const FILE_FACTS_META = 'file_facts';

/** A file's row: its declared names between line breaks (`\nalign\ngetvalue\n`, '' for none) and whether a stored line is dead. */
export interface FileFacts {
  names: string;
  dead: boolean;
}

/** The distinct lower-cased names of an outline's declaring symbols, at any depth, as the table keeps them. */
export function declaredNames(nodes: ReadonlyArray<OutlineNode | OutlineSymbol>): string {
  const out = new Set<string>();
  const walk = (list: ReadonlyArray<OutlineNode | OutlineSymbol>) => {
    for (const n of list) {
      if (levelOf(n.kind)) out.add(n.name.toLowerCase());
      if (n.children) walk(n.children);
    }
  };
  walk(nodes);
  return out.size ? `\n${[...out].join('\n')}\n` : '';
}

/** A file's facts from its outline and its stored lines (the lines its blob keeps: a dropped secret chunk's are empty). */
export function factsOf(nodes: ReadonlyArray<OutlineNode | OutlineSymbol>, storedLines: readonly string[], lang: string): FileFacts {
  return { names: declaredNames(nodes), dead: deadLines(storedLines, lang).includes(1) };
}

/** A statement's first value: the database's, or a search session's cached statements'. */
type ValueOf = (sql: string, params: ReadonlyArray<string | number>) => unknown;
const valueOf = (db: Database): ValueOf => (sql, params) => (params.length ? db.selectValue(sql, [...params]) : db.selectValue(sql));

const hasTable = (value: ValueOf): boolean => value("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [FILE_FACTS_TABLE]) !== undefined;
/** The stamp of the current generation: what meta `file_facts` holds when the record is complete for it. */
const stampNow = (value: ValueOf): string => `${FACTS_VERSION}:${String(value("SELECT coalesce((SELECT value FROM meta WHERE key = 'generation'), '')", []) ?? '')}`;
/** Whether meta `file_facts` names the current generation (and these rules); the table is there. */
const stampCurrent = (value: ValueOf): boolean => value('SELECT value FROM meta WHERE key = ?', [FILE_FACTS_META]) === stampNow(value);

/** The statement that writes a file's row (the writer's and the fill's). */
export const FACTS_INSERT = `INSERT INTO ${FILE_FACTS_TABLE}(file_id, names, dead) VALUES (?, ?, ?)`;
export const FACTS_DELETE = `DELETE FROM ${FILE_FACTS_TABLE} WHERE file_id = ?`;

/**
 * Called by the indexer at the start of each write transaction, before it bumps the generation: makes
 * the table when missing (complete at once when the index holds no file yet) and says whether the
 * record is current — then the writer's rows keep it so and `carryFileFacts` names the new generation.
 */
export function beginFileFacts(db: Database): boolean {
  const value = valueOf(db);
  if (!hasTable(value)) {
    db.exec(`CREATE TABLE ${FILE_FACTS_TABLE}(file_id INTEGER PRIMARY KEY, names TEXT NOT NULL, dead INTEGER NOT NULL)`);
    if (db.selectValue('SELECT 1 FROM files LIMIT 1') === undefined) setMeta(db, { [FILE_FACTS_META]: stampNow(value) });
  }
  return stampCurrent(value);
}

/** Whether the record is complete for the index's current generation (and these rules). */
export function fileFactsCurrent(db: Database): boolean {
  const value = valueOf(db);
  return hasTable(value) && stampCurrent(value);
}

/** After the transaction's writes (each kept in the table by the writer): the record is current for the generation they made, if it was before. */
export function carryFileFacts(db: Database, wasCurrent: boolean): void {
  if (wasCurrent) setMeta(db, { [FILE_FACTS_META]: stampNow(valueOf(db)) });
}

/**
 * In the last transaction of a whole-tree pass: when the record is not current (an index made before
 * it, a write by code that does not keep it, other rules), fills it again from every stored file (once,
 * when an older index is first indexed again) and names this generation.
 */
export function recordFileFacts(db: Database, codec: DeflateCodec): void {
  if (beginFileFacts(db)) return;
  db.exec(`DELETE FROM ${FILE_FACTS_TABLE}`);
  const files = db.selectArrays('SELECT id, lang FROM files ORDER BY id') as Array<[number, string]>;
  const st = db.prepare(FACTS_INSERT);
  try {
    for (const [id, lang] of files) {
      const stored = readStoredFile(db, Number(id), codec);
      if (!stored) continue;
      const facts = factsOf(stored.outline, stored.lines, lang);
      if (facts.names || facts.dead) st.bind([Number(id), facts.names, facts.dead ? 1 : 0]).stepReset();
    }
  } finally {
    st.finalize();
  }
  setMeta(db, { [FILE_FACTS_META]: stampNow(valueOf(db)) });
}

/** What the lookups use of a search session (session.ts's SearchSession: not imported). */
interface SearchSession {
  readonly readsAhead: boolean;
  cached<T>(key: string, make: () => T): T;
  value(sql: string, params?: ReadonlyArray<string | number>): unknown;
  arrays(sql: string, params?: readonly string[]): unknown[][];
}

/** Whether this generation's record serves this session (a local index, the record current; checked once per generation). */
function recorded(session: SearchSession): boolean {
  return session.cached('file-facts:current', () => {
    if (session.readsAhead) return false;
    const value: ValueOf = (sql, params) => session.value(sql, params);
    return hasTable(value) && stampCurrent(value);
  });
}

/** A surrogate code unit (a name holding one is not looked up in the record: SQLite's UTF-8 turns a lone one into U+FFFD). */
const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Of `fileIds`, those that may declare `query` (`exact`: a declaring symbol named it, in any case) or a
 * name that starts or ends with it (`!exact`: declarations.ts's affixed names), by this generation's
 * record; null when there is none (the caller reads every file). A superset of the files whose
 * outline has such a symbol: the names are compared lower-cased, as the outline walk compares them
 * at its loosest.
 */
export function filesDeclaring(session: SearchSession, fileIds: readonly number[], query: string, exact: boolean): Set<number> | null {
  const q = query.toLowerCase();
  if (!fileIds.length || SURROGATE.test(q) || !recorded(session)) return null;
  // The rows whose names hold the name somewhere (SQL's test), then the names tested here.
  const rows = session.arrays(`SELECT file_id, names FROM ${FILE_FACTS_TABLE} WHERE file_id IN (SELECT value FROM json_each(?)) AND instr(names, ?) > 0`, [JSON.stringify(fileIds), q]);
  const out = new Set<number>();
  for (const [id, names] of rows) {
    const list = String(names);
    if (exact ? list.includes(`\n${q}\n`) : list.split('\n').some((n) => n.startsWith(q) || n.endsWith(q))) out.add(Number(id));
  }
  return out;
}

/** Files whose dead-line maps a session keeps, per index generation. */
const CACHED_FILES = 2000;

/**
 * A stored file's dead lines (dead-code.ts deadLines), kept per index generation in the session; a
 * file this generation's record marks as having none gets a map of zeros without a scan.
 */
export function deadLinesOf(session: SearchSession, fileId: number, hash: string, stored: StoredFile, lang: string): Uint8Array {
  if (recorded(session) && !session.value(`SELECT dead FROM ${FILE_FACTS_TABLE} WHERE file_id = ?`, [fileId])) return new Uint8Array(stored.lines.length);
  const maps = session.cached('dead-lines', () => new Map<string, Uint8Array>());
  const key = `${fileId}:${hash}`;
  let dead = maps.get(key);
  if (!dead) {
    if (maps.size >= CACHED_FILES) maps.clear();
    maps.set(key, (dead = deadLines(stored.lines, lang)));
  }
  return dead;
}

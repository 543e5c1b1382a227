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
// Beside it, table `file_declarations`: a row per live declaration (a declaring symbol whose name
// line is not dead and lies in a stored chunk), keyed by its lower-cased name, with the symbol as
// written, its kind, name line, chunk and type-parameter count: an exact name's declarations in
// given files are read from it without decoding an outline or asking which chunk holds the line
// (bench/results/search-warm-warm11.md), and so is the list of the files that declare a name.
// The writer keeps a file's row with its other rows (core/index/writer.ts), the indexer carries the
// record from one generation to the next in each of its write transactions when the record was
// current before it (meta `file_facts` names the generation and FACTS_VERSION), and a whole-tree pass
// that finds it not current (an older index, a write by other code, other rules) fills it again from
// the stored files. A search trusts it only at the generation it names, on a local index; packs
// leave it out. Otherwise declarations and dead lines read every file, as before. Owns the table,
// the record's generation, the kinds that declare, where a declaration's name line is and the session's dead-line maps; what a
// declaration is worth is declarations.ts's and rerank.ts's, which lines are dead dead-code.ts's.
import type { Database } from '../sqlite/engine.ts';
import type { OutlineSymbol } from '../contract/outline.ts';
import type { OutlineNode } from '../chunk/outline.ts';
import type { StoredFile } from '../index/file-data.ts';
import { readStoredFile, type DeflateCodec } from '../index/file-data.ts';
import { CURRENT_GENERATION, setMeta } from '../index/meta.ts';
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
 * The rules the record was made with: bump it when the kinds above, nameLine or dead-code.ts's deadLines change
 * (a record of other rules is not current: the next whole-tree pass fills it again).
 */
const FACTS_VERSION = 3;

export const FILE_FACTS_TABLE = 'file_facts';
/** A row per live declaration (see the header), clustered by lower-cased name. */
export const DECLS_TABLE = 'file_declarations';
const DECLS_SCHEMA = `CREATE TABLE ${DECLS_TABLE}(name TEXT NOT NULL, file_id INTEGER NOT NULL, seq INTEGER NOT NULL, symbol TEXT NOT NULL, kind TEXT NOT NULL, line INTEGER NOT NULL, chunk_id INTEGER NOT NULL, arity INTEGER NOT NULL, PRIMARY KEY(name, file_id, seq)) WITHOUT ROWID`;
/** The meta key naming the generation (and FACTS_VERSION) the table is complete for. */
export const FILE_FACTS_META = 'file_facts';

/** A file's row: its declared names between line breaks (`\nalign\ngetvalue\n`, '' for none) and whether a stored line is dead. */
export interface FileFacts {
  names: string;
  dead: boolean;
  /** Its rows of file_declarations (their chunks by index: the writer knows the ids). */
  declarations: DeclaredSymbol[];
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
export function factsOf(nodes: ReadonlyArray<OutlineNode | OutlineSymbol>, storedLines: readonly string[], lang: string, chunks: ReadonlyArray<{ startLine: number; endLine: number }> = []): FileFacts {
  const dead = deadLines(storedLines, lang);
  const names = declaredNames(nodes);
  return { names, dead: dead.includes(1), declarations: names ? declarationsOf(nodes, storedLines, dead, chunks) : [] };
}

/** A symbol of an outline as written (the parser's) or as stored (the blob's). */
type AnySymbol = OutlineNode | OutlineSymbol;
const startOf = (n: AnySymbol): number => ('startLine' in n ? n.startLine : n.start_line);
const endOf = (n: AnySymbol): number => ('endLine' in n ? n.endLine : n.end_line);
const keyOf = (n: AnySymbol): string => ('memberKey' in n ? n.memberKey : (n as OutlineSymbol).member_key) ?? '';

/** The number of type parameters in a trailing `<…>` (top-level commas + 1; 0 when none). */
export function typeParameterCount(s: string): number {
  const open = s.lastIndexOf('<');
  if (open < 0 || !s.endsWith('>')) return 0;
  let depth = 0;
  let n = 1;
  for (const ch of s.slice(open + 1, -1)) {
    if (ch === '<') depth++;
    else if (ch === '>') depth--;
    else if (ch === ',' && depth === 0) n++;
  }
  return n;
}

/** A character that continues a name (`\w` or `$`, by char code). */
const wordy = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36;

/**
 * A line that is a comment or a comment's continuation (`//`, `///`, `/*`, ` *`, `<!--`, Razor's `@*`,
 * `# ` of Python, YAML and shells): a doc comment or a commented-out copy above a declaration names
 * it without declaring it.
 */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|<!--|@\*|#(?=\s|$))/;

/**
 * The declaration's name line: the first line from `from` to `to` where `name` appears as a whole
 * word on a line that is not a comment (COMMENT_LINE) nor `dead` (dead-code.ts: commented-out code,
 * `#if false`) — an outline symbol's range starts at its doc comments and attributes, which may
 * name it (`/// Gauge shows…`, `// public class Gauge : OldBase`); else the first such line of
 * any kind; `from` when none. A whole word: not after or before a letter, digit, `_` or `$`
 * (ASCII, as the pattern `(?<![\w$])name(?![\w$])` read it), found by indexOf — no pattern
 * compiled per symbol.
 */
export function nameLine(lines: readonly string[], from: number, to: number, name: string, dead?: Uint8Array): number {
  // (An empty name — no declaring symbol has one — matches where the pattern would: between two non-name characters.)
  if (!name) {
    for (let l = from; l <= Math.min(to, lines.length); l++) if (/(?<![\w$])(?![\w$])/.test(lines[l - 1] ?? '')) return l;
    return from;
  }
  let first = 0;
  for (let l = from; l <= Math.min(to, lines.length); l++) {
    const line = lines[l - 1] ?? '';
    for (let i = line.indexOf(name); i >= 0; i = line.indexOf(name, i + 1)) {
      if ((i === 0 || !wordy(line.charCodeAt(i - 1))) && !wordy(line.charCodeAt(i + name.length))) {
        if (!dead?.[l - 1] && !COMMENT_LINE.test(line)) return l;
        first ||= l;
        break;
      }
    }
  }
  return first || from;
}

/** A live declaration as the record keeps it: `chunk` is the index of the file's first chunk that holds its name line. */
export interface DeclaredSymbol {
  seq: number;
  symbol: string;
  kind: string;
  line: number;
  chunk: number;
  arity: number;
}

/**
 * A file's live declarations, in outline order (a pre-order walk, as declarations.ts walks it): each
 * declaring symbol whose name line (nameLine) is not dead and lies in one of `chunks` (the file's
 * chunk bounds in ordinal order; a dropped secret chunk's lines lie in none).
 */
export function declarationsOf(nodes: ReadonlyArray<AnySymbol>, lines: readonly string[], dead: Uint8Array, chunks: ReadonlyArray<{ startLine: number; endLine: number }>): DeclaredSymbol[] {
  const out: DeclaredSymbol[] = [];
  let seq = 0;
  const walk = (list: ReadonlyArray<AnySymbol>) => {
    for (const n of list) {
      if (levelOf(n.kind)) {
        const line = nameLine(lines, startOf(n), endOf(n), n.name, dead);
        const chunk = dead[line - 1] ? -1 : chunks.findIndex((c) => c.startLine <= line && c.endLine >= line);
        if (chunk >= 0) out.push({ seq: seq++, symbol: n.name, kind: n.kind, line, chunk, arity: typeParameterCount(keyOf(n)) });
      }
      const children = n.children as ReadonlyArray<AnySymbol> | undefined;
      if (children) walk(children);
    }
  };
  walk(nodes);
  return out;
}

/** The statement that writes a declaration's row: name, file, seq, symbol, kind, line, chunk id, arity. */
export const DECLS_INSERT = `INSERT INTO ${DECLS_TABLE}(name, file_id, seq, symbol, kind, line, chunk_id, arity) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
/** Deletes a file's declarations of the names (json array) its file_facts row lists (the table is clustered by name). */
export const DECLS_DELETE = `DELETE FROM ${DECLS_TABLE} WHERE name IN (SELECT value FROM json_each(?)) AND file_id = ?`;
/** The names a file_facts row lists, as DECLS_DELETE binds them. */
export const namesJson = (names: string): string => JSON.stringify(names.split('\n').filter(Boolean));

/** A statement's first value: the database's, or a search session's cached statements'. */
type ValueOf = (sql: string, params: ReadonlyArray<string | number>) => unknown;
const valueOf = (db: Database): ValueOf => (sql, params) => (params.length ? db.selectValue(sql, [...params]) : db.selectValue(sql));

const hasTable = (value: ValueOf): boolean => value("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [FILE_FACTS_TABLE]) !== undefined;
/** The stamp of the current generation: what meta `file_facts` holds when the record is complete for it. */
const stampNow = (value: ValueOf): string => `${FACTS_VERSION}:${String(value(`SELECT ${CURRENT_GENERATION}`, []) ?? '')}`;
/** Whether meta `file_facts` names the current generation (and these rules); the table is there. */
const stampCurrent = (value: ValueOf): boolean => value('SELECT value FROM meta WHERE key = ?', [FILE_FACTS_META]) === stampNow(value);

/**
 * The files with a dead line, as a partial index of the record (an entry per marked file: 158 of
 * Avalonia's 4,831; covering: the entry holds the row id, which is the file id): a search reads the
 * list from it in one statement that walks those entries and no row of the record — without
 * it, the list was a scan of the whole record, names and all (1.3 MB on Avalonia; the one warm query
 * that read it paid ~20 ms: bench/results/search-warm-warm13.md), so searches asked file by file first.
 */
const DEAD_INDEX = 'file_facts_dead';
const DEAD_INDEX_SCHEMA = `CREATE INDEX IF NOT EXISTS ${DEAD_INDEX} ON ${FILE_FACTS_TABLE}(dead) WHERE dead`;

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
    db.exec(DECLS_SCHEMA);
    if (db.selectValue('SELECT 1 FROM files LIMIT 1') === undefined) setMeta(db, { [FILE_FACTS_META]: stampNow(value) });
  }
  // (A record of rules before the declarations' table: made empty, not current until the next whole-tree pass fills it.)
  if (value("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?", [DECLS_TABLE]) === undefined) db.exec(DECLS_SCHEMA);
  // (A record made before the index of marked files gets it here, from its rows: no file is read.)
  db.exec(DEAD_INDEX_SCHEMA);
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
  db.exec(`DELETE FROM ${FILE_FACTS_TABLE}; DELETE FROM ${DECLS_TABLE}`);
  const files = db.selectArrays('SELECT id, lang FROM files ORDER BY id') as Array<[number, string]>;
  const st = db.prepare(FACTS_INSERT);
  const decl = db.prepare(DECLS_INSERT);
  const chunksOf = db.prepare('SELECT id, start_line, end_line FROM chunks WHERE file_id = ? ORDER BY ordinal');
  try {
    for (const [id, lang] of files) {
      const stored = readStoredFile(db, Number(id), codec);
      if (!stored) continue;
      const chunks: Array<{ id: number; startLine: number; endLine: number }> = [];
      chunksOf.bind([Number(id)]);
      while (chunksOf.step()) chunks.push({ id: Number(chunksOf.get(0)), startLine: Number(chunksOf.get(1)), endLine: Number(chunksOf.get(2)) });
      chunksOf.reset();
      const facts = factsOf(stored.outline, stored.lines, lang, chunks);
      if (facts.names || facts.dead) st.bind([Number(id), facts.names, facts.dead ? 1 : 0]).stepReset();
      for (const d of facts.declarations) decl.bind([d.symbol.toLowerCase(), Number(id), d.seq, d.symbol, d.kind, d.line, chunks[d.chunk].id, d.arity]).stepReset();
    }
  } finally {
    st.finalize();
    decl.finalize();
    chunksOf.finalize();
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
 * longer name that starts or ends with it (`!exact`: declarations.ts's affixed names), by this generation's
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
    // (An affixed name is longer than the query: affixes.ts affixBetween.)
    if (exact ? list.includes(`\n${q}\n`) : list.split('\n').some((n) => n.length > q.length && (n.startsWith(q) || n.endsWith(q)))) out.add(Number(id));
  }
  return out;
}

/** A declaration read from the record: file_declarations' row. */
export interface RecordedDeclaration extends Omit<DeclaredSymbol, 'chunk'> {
  fileId: number;
  chunkId: number;
}

/**
 * The live declarations of names equal to `query` in any case (lower-cased: the caller compares the
 * symbol as written) in `fileIds`, or in every file when `fileIds` is null, by file id then outline
 * order; null when this generation has no record (the caller reads the outlines).
 */
export function recordedDeclarations(session: SearchSession, query: string, fileIds: readonly number[] | null): RecordedDeclaration[] | null {
  const q = query.toLowerCase();
  if (SURROGATE.test(q) || !recorded(session)) return null;
  const sql = `SELECT file_id, seq, symbol, kind, line, chunk_id, arity FROM ${DECLS_TABLE} WHERE name = ?${fileIds ? ' AND file_id IN (SELECT value FROM json_each(?))' : ''} ORDER BY file_id, seq`;
  const rows = session.arrays(sql, fileIds ? [q, JSON.stringify(fileIds)] : [q]) as Array<[number, number, string, string, number, number, number]>;
  return rows.map(([fileId, seq, symbol, kind, line, chunkId, arity]) => ({ fileId: Number(fileId), seq: Number(seq), symbol: String(symbol), kind: String(kind), line: Number(line), chunkId: Number(chunkId), arity: Number(arity) }));
}

/**
 * Every file (that the path filter lets through) with a live declaration of a name equal to `query`
 * in any case, by file id, as rows of files (id, hash, path, lang); null when this generation has no record.
 */
export function declaringFiles(session: SearchSession, query: string): Array<[number, string, string, string]> | null {
  const q = query.toLowerCase();
  if (SURROGATE.test(q) || !recorded(session)) return null;
  return session.arrays(
    `SELECT f.id, f.hash, f.path, f.lang FROM files f WHERE f.id IN (SELECT file_id FROM ${DECLS_TABLE} WHERE name = ?) AND hci_path_ok(f.path) ORDER BY f.id`,
    [q],
  ) as Array<[number, string, string, string]>;
}

/** Distinct files a generation asks about one by one before it reads the list of files with a dead line (a record without its index: DEAD_INDEX). */
export const DEAD_LOOKUPS_BEFORE_LIST = 256;

/**
 * Whether this generation's record marks the file as having a dead line (few do: 158 of Avalonia's
 * 4,831). With the record's index of marked files (DEAD_INDEX) the list is read once per generation,
 * at the first question: one statement over those entries. A record made before that index (an index
 * written by an older hci, until its next write) has only the scan of the whole record (its names too:
 * 1.3 MB on Avalonia, ~25 ms that a one-query process — the CLI — paid for a dozen files), so a
 * generation then asks file by file until it has asked about DEAD_LOOKUPS_BEFORE_LIST files (a
 * long-running process, a server), then reads the list once and answers from it.
 */
function hasDeadLine(session: SearchSession, fileId: number): boolean {
  const known = session.cached('file-facts:dead', () => {
    const indexed = session.value("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?", [DEAD_INDEX]) !== undefined;
    return { files: new Map<number, boolean>(), list: indexed ? deadList(session, true) : null };
  });
  if (known.list) return known.list.has(fileId);
  let dead = known.files.get(fileId);
  if (dead !== undefined) return dead;
  if (known.files.size >= DEAD_LOOKUPS_BEFORE_LIST) {
    known.list = deadList(session, false);
    known.files.clear();
    return known.list.has(fileId);
  }
  dead = !!session.value(`SELECT dead FROM ${FILE_FACTS_TABLE} WHERE file_id = ?`, [fileId]);
  known.files.set(fileId, dead);
  return dead;
}

/** The files the record marks as having a dead line (`indexed`: read from DEAD_INDEX; else a scan of the record). */
const deadList = (session: SearchSession, indexed: boolean): ReadonlySet<number> =>
  new Set(session.arrays(`SELECT file_id FROM ${FILE_FACTS_TABLE}${indexed ? ` INDEXED BY ${DEAD_INDEX}` : ''} WHERE dead`).map((r) => Number(r[0])));

/** Files whose dead-line maps a session keeps, per index generation. */
const CACHED_FILES = 2000;

/**
 * A stored file's dead lines (dead-code.ts deadLines), kept per index generation in the session; a
 * file this generation's record marks as having none gets a map of zeros without a scan.
 */
export function deadLinesOf(session: SearchSession, fileId: number, hash: string, stored: StoredFile, lang: string): Uint8Array {
  if (recorded(session) && !hasDeadLine(session, fileId)) return new Uint8Array(stored.lineCount);
  const maps = session.cached('dead-lines', () => new Map<string, Uint8Array>());
  const key = `${fileId}:${hash}`;
  let dead = maps.get(key);
  if (!dead) {
    if (maps.size >= CACHED_FILES) maps.clear();
    maps.set(key, (dead = deadLines(stored.lines, lang)));
  }
  return dead;
}

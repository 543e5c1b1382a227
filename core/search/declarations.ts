// Definition-first for names: where the query's identifiers are declared, by the stored outlines
// (tree-sitter's symbols, not a regex over text) of the files the search found. A declaration's
// chunk is the one holding the declaration's name line; it may lie outside the candidates (a class
// declared in a file's head, among its usings, scores low on BM25 while every member chunk of the
// file holds the name in its path), so those chunks are handed back for the keyword channel to
// score (channels/fts.ts scoreChunks) and join the candidates. Each declaration has a tier: the
// name equal to the query or up to one of the repository's affixes (affixes.ts), declared by a type
// or by a member, in a file whose name is the declared name or not. When the index has a current
// record (file-facts.ts), the exact name's declarations — name line, chunk — and the files that
// declare it are read from its rows, no outline decoded; for names up to an affix only the files it
// says may declare one are decoded. Owns finding declarations and their tiers; what a tier weighs is
// rerank.ts's; which kinds declare a name, and where a declaration's name line is, file-facts.ts's.
import type { IndexedFile, SearchSession } from './session.ts';
import { affixBetween, DECLARING, indexAffixes, type Affixes } from './affixes.ts';
import type { OutlineSymbol } from '../contract/outline.ts';
import { languageById } from '../languages/table.ts';
import { baseName, extensionOf, languageOf, nameStem } from '../scan/languages.ts';
import { CHUNKS_BY_SYMBOL } from '../index/schema.ts';
import type { StoredFile } from '../index/file-data.ts';
import { filesNamed } from './first-search-record.ts';
import { deadLinesOf, declaringFiles, filesDeclaring, levelOf, nameLine, recordedDeclarations, typeParameterCount } from './file-facts.ts';

/** A TypeScript declaration file: `x.d.ts`, `x.d.mts`, `x.d.cts`. */
const AMBIENT_FILE = /\.d\.[mc]?ts$/;

/** A file the declarations are looked for in. */
type FileRef = { fileId: number; hash: string; path: string; lang: string };

/** Distinct files whose outlines are read, best first: those the page's candidates come from. */
const MAX_FILES = 30;
/** A name declared in more files than this names no one place (`Dispose`, `Value`): not looked up further. */
const MAX_DECLARING_FILES = 12;

export interface Declaration {
  /** The chunk that holds the declaration's name line. */
  chunkId: number;
  fileId: number;
  /** The query identifier it answers, and the name declared (they differ by `affix`). */
  query: string;
  name: string;
  kind: string;
  /** The 1-based line of the name. */
  line: number;
  affix: string | null;
  /** The file's name (before its first dot) is the declared name. */
  stem: boolean;
  /** …and nothing more: `X.cs`, `X.razor.cs` (a code-behind), not `X.properties.cs` or `X.TResult.cs`. */
  stemExact: boolean;
  /** The query gave type parameters (`Outcome<TResult>`) and the declaration has another number of them. */
  arityMismatch: boolean;
  /** Declared in a TypeScript declaration file (`.d.ts`): typings of code that lives elsewhere, or of nothing in the repository. */
  ambient: boolean;
  level: 'type' | 'member' | 'file';
}

/** The affixes of this index (learned once per generation). */
export function sessionAffixes(session: SearchSession): Affixes {
  return session.cached('affixes', () => indexAffixes(session.db));
}

/**
 * The file's name without its extension and a view's (`X.razor.cs` → X; `X.properties.cs` →
 * X.properties): a view is a language with companions (the language table).
 */
function fullStemOf(path: string): string {
  const base = baseName(path);
  const dot = base.lastIndexOf('.');
  const noExt = dot < 0 ? base : base.slice(0, dot);
  return languageById(languageOf(noExt))?.companions ? noExt.slice(0, noExt.length - extensionOf(noExt).length) : noExt;
}

/** A name as written with its type parameters: `Outcome<TResult>` → Outcome and 1 (null: none written). */
export function genericName(written: string): { name: string; arity: number | null } {
  const m = /^([^<]+)<(.*)>$/.exec(written);
  return m ? { name: m[1], arity: typeParameterCount(`<${m[2]}>`) } : { name: written, arity: null };
}


/**
 * Declarations of `names` (query identifiers) in the files of `cands` (the first MAX_FILES distinct
 * files, in candidate order) and the files the index names it in (namedFiles): the exact name, and
 * up to the repository's affixes when the exact name declares no type there. The caller asks for
 * the names of a symbol query only (in a sentence, `ContentDialog` is as likely the control's style
 * file, ContentDialogStyles.axaml, as FAContentDialog). Each declaration is placed in the chunk holding its name line.
 */
export function findDeclarations(session: SearchSession, names: readonly string[], cands: ReadonlyArray<FileRef & { symbolName?: string | null }>): Declaration[] {
  if (!names.length) return [];
  const files: FileRef[] = [];
  const seen = new Set<number>();
  for (const c of cands) {
    if (seen.has(c.fileId)) continue;
    seen.add(c.fileId);
    files.push(c);
    if (files.length >= MAX_FILES) break;
  }
  const out: Declaration[] = [];
  for (const text of names) {
    const name = genericName(text).name;
    // The files that may declare the name beyond the candidates' (a name's own file can sit deep
    // in a pool of its usages: `Align` among every chunk that says "align").
    // And the files of candidates past those whose chunk is named after it (a method `Ordinalize` ranked
    // below thirty files of locale data that say "ordinal").
    const lower = name.toLowerCase();
    const symbolFiles = new Map<number, FileRef>();
    for (const c of cands) if (!seen.has(c.fileId) && c.symbolName?.toLowerCase() === lower) symbolFiles.set(c.fileId, c);
    const more = [...symbolFiles.values(), ...namedFiles(session, name).filter((f) => !seen.has(f.fileId) && !symbolFiles.has(f.fileId))];
    const where = more.length ? [...files, ...more] : files;
    let found = declarationsIn(session, where, text, null);
    // Up to an affix (the files named after an affixed name are read too: RadzenTextBox.razor.cs
    // for "TextBox"),
    // also when the exact name declares only members (a property `Scheduler` of type RadzenScheduler):
    // a type is what a type-like name asks for, and its tier ranks above a member's elsewhere.
    if (!found.some((d) => d.level !== 'member')) {
      const affixes = sessionAffixes(session);
      // (Of the files named after the name or declaring it, as many as the lookups without a record
      // list at most: a name declared in hundreds of files has all of them listed by the record.)
      const near = more.length > NEAR_FILES ? [...files, ...more.slice(0, NEAR_FILES)] : where;
      const named = affixedStemFiles(session, name, affixes).filter((f) => !seen.has(f.fileId) && !near.some((m) => m.fileId === f.fileId));
      found = [...found, ...declarationsIn(session, named.length ? [...near, ...named] : near, text, affixes)];
    }
    // A name declared in many files names no one place, unless files are named after it (a partial
    // class over 35 files, one of them HumanizerSourceGenerator.cs): then those are.
    if (new Set(found.map((d) => d.fileId)).size <= MAX_DECLARING_FILES) out.push(...found);
    else out.push(...found.filter((d) => d.stem));
  }
  return out;
}

function declarationsIn(session: SearchSession, files: readonly FileRef[], text: string, affixes: Affixes | null): Declaration[] {
  const g = genericName(text);
  const query = g.name;
  const written = { text, arity: g.arity };
  if (affixes && !affixes.prefixes.length && !affixes.suffixes.length) return [];
  // A name with a capital matches as written (C# is case-sensitive: `TextBox` is no field `textBox`);
  // one in lower case (`tariff`) matches any case.
  const cased = /\p{Lu}/u.test(query);
  const q = cased ? query : query.toLowerCase();
  const out: Declaration[] = [];
  const make = (f: FileRef, s: { name: string; kind: string }, line: number, chunk: number, affix: string | null, arity: number | null): Declaration => ({
    chunkId: chunk, fileId: f.fileId, query: written.text, name: s.name, kind: s.kind, line, affix,
    stem: nameStem(f.path).toLowerCase() === s.name.toLowerCase(), stemExact: fullStemOf(f.path).toLowerCase() === s.name.toLowerCase(),
    arityMismatch: arity !== null && arity !== written.arity, level: levelOf(s.kind)!, ambient: AMBIENT_FILE.test(f.path),
  });
  // The exact name: its live declarations in these files as this generation's record keeps them
  // (file-facts.ts: name line, chunk, type parameters), no outline decoded and no chunk looked up.
  const recorded = affixes ? null : recordedDeclarations(session, query, files.map((f) => f.fileId));
  if (recorded) {
    const byFile = new Map<number, typeof recorded>();
    for (const d of recorded) if (!cased || d.symbol === q) byFile.set(d.fileId, [...(byFile.get(d.fileId) ?? []), d]);
    for (const f of files) for (const d of byFile.get(f.fileId) ?? []) out.push(make(f, { name: d.symbol, kind: d.kind }, d.line, d.chunkId, null, written.arity === null ? null : d.arity));
    return out;
  }
  const holds = nameTest(query);
  // The files this generation's record says may declare it (file-facts.ts): the others' outlines hold no such symbol, so they are not decoded.
  const declaring = filesDeclaring(session, files.map((f) => f.fileId), query, !affixes);
  if (declaring) files = files.filter((f) => declaring.has(f.fileId));
  session.prefetchFiles(files);
  const found: Array<{ f: FileRef; stored: NonNullable<ReturnType<SearchSession['files']['get']>>; hits: Array<{ s: OutlineSymbol; affix: string | null }> }> = [];
  for (const f of files) {
    const stored = session.files.get(f.fileId, f.hash);
    if (!stored) continue;
    // A file whose text and path never hold the name declares nothing named after it: its outline
    // (the file's meta, decoded when first read) is not read.
    if (holds && !mayDeclare(stored, f, holds)) continue;
    const hits: Array<{ s: OutlineSymbol; affix: string | null }> = [];
    const walk = (syms: readonly OutlineSymbol[]) => {
      for (const s of syms) {
        if (levelOf(s.kind)) {
          if (!affixes) {
            if ((cased ? s.name : s.name.toLowerCase()) === q) hits.push({ s, affix: null });
          } else {
            const affix = affixBetween(query, s.name, affixes);
            if (affix) hits.push({ s, affix });
          }
        }
        if (s.children) walk(s.children);
      }
    };
    walk(stored.outline);
    if (hits.length) found.push({ f, stored, hits });
  }
  // A packed index knows each file's chunks by id (chunk-files.ts): their rows, fetched ahead in one
  // request over HTTP, place the declarations (chunkAt), not a lookup in chunks_by_file per file.
  const runs = session.chunkFiles();
  if (runs) session.prefetchRows('chunks', found.flatMap(({ f }) => runs.chunksOf(f.fileId)));
  for (const { f, stored, hits } of found) {
    const dead = deadLinesOf(session, f.fileId, f.hash, stored, f.lang);
    for (const { s, affix } of hits) {
      const line = nameLine(stored.lines, s.start_line, s.end_line, s.name, dead);
      // A declaration in commented-out code or under `#if false` declares nothing.
      if (dead[line - 1]) continue;
      const chunk = runs ? chunkIn(session, runs.chunksOf(f.fileId), line) : chunkAt(session, f.fileId, line);
      if (chunk === null) continue;
      out.push(make(f, s, line, chunk, affix, written.arity === null ? null : typeParameterCount(s.member_key ?? '')));
    }
  }
  return out;
}

/**
 * A test for the query name in any case (Unicode case folding: what a declared name that equals it,
 * or holds it with an affix, in any case — lower-cased, affixes.ts — shows of it), or null when
 * files are not to be filtered by it (a name of other characters than letters, digits and `_`).
 */
function nameTest(query: string): RegExp | null {
  return /^[\p{L}\p{N}_]+$/u.test(query) ? new RegExp(query, 'iu') : null;
}

/**
 * Whether the file can declare a name holding the query name: an outline symbol's name stands in
 * its file's text or (a XAML root without x:Class) in its path — except a Razor component's, made
 * from a file name it need not equal (`Z-Index.razor` declares `Z_Index`), so Razor files are always
 * read. Checked over Avalonia, MudBlazor, FluentAvalonia, Humanizer and the sample: every declaring
 * symbol's name but C# indexers' (`this[]`, which no name query asks for) and Razor's is in its text or path.
 */
function mayDeclare(stored: StoredFile, f: FileRef, holds: RegExp): boolean {
  if (f.lang === 'razor' || holds.test(f.path)) return true;
  // (The name holds no line break: one scan of the whole text finds what a scan of each line would.)
  return holds.test(stored.text);
}

/** Files read at most per name by each lookup. */
const LOOKUP_FILES = 8;
/** The most files namedFiles lists without a record (LOOKUP_FILES named after it, as many more by chunk symbols, LOOKUP_FILES more by rank). */
const NEAR_FILES = 3 * LOOKUP_FILES;
/** Chunks the symbol lookup's FTS query ranks at most. */
const LOOKUP_ROWS = 200;

/**
 * Files that may declare the name: those named after it (the part of the name before the first
 * dot, any case: `Align.cs` for "Align", `FATabView.properties.cs`), and every file the record of
 * declarations says declares it; without a current record (an older index, a remote one) those whose chunk symbols
 * hold it (a chunk named after it or keyed inside it: `DocsJsApiService` declared in
 * DocsJsApi.cs), the best LOOKUP_FILES by FTS5's own rank over that column. Kept per generation
 * among the session's recent answers (unfiltered searches only).
 */
function namedFiles(session: SearchSession, name: string): FileRef[] {
  const word = name.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
  if (!word) return [];
  // The answer depends on the path filter: kept among the recent answers only when none applies.
  const cache = session.filtered ? <T>(_key: string, make: () => T) => make() : <T>(key: string, make: () => T) => session.recent(key, make);
  return cache(`declared-in:${word}`, () => {
    const out: FileRef[] = withHashes(session, stemFiles(session, name.toLowerCase()).filter((f) => session.filtered ? pathOk(session, f.path) : true).slice(0, LOOKUP_FILES));
    const seen = new Set(out.map((f) => f.fileId));
    // With this generation's record of declarations (file-facts.ts): every file that declares the
    // name, in any case — not the few files the lookups below guess from chunk symbols.
    const declaring = declaringFiles(session, name);
    if (declaring) {
      for (const [fileId, hash, path, lang] of declaring) if (!seen.has(Number(fileId))) out.push({ fileId: Number(fileId), hash, path, lang });
      return out;
    }
    /** Adds the rows' files not listed yet, at most `room` of them. */
    const add = (rows: Array<[number, string, string, string]>, room: number) => {
      for (const [fileId, hash, path, lang] of rows) {
        if (room <= 0) return;
        if (seen.has(fileId)) continue;
        seen.add(fileId);
        out.push({ fileId, hash, path, lang });
        room--;
      }
    };
    // Chunks named exactly after it first (a method `Ordinalize` among a hundred test chunks keyed
    // `OrdinalizeTests.…`, which FTS5's rank puts ahead of it).
    add(exactlyNamed(session, word, name.toLowerCase()), 2 * LOOKUP_FILES - out.length);
    // Then the files of the chunks FTS5's rank puts first over the symbol column, read a batch at a
    // time until LOOKUP_FILES more files are found (not the rows of all LOOKUP_ROWS chunks).
    // FTS5's rank reads the length of every chunk the word matches in that column: over HTTP those
    // rows first, in one request (the doclist alone tells which), not a growing scan of a few pages at a time.
    if (session.readsAhead) session.prefetchRows('chunks_fts_docsize', session.arrays('SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?', [`{symbol} : "${word}"`]).map((r) => Number(r[0])));
    const ranked = session.arrays(`SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY rank LIMIT ${LOOKUP_ROWS}`, [`{symbol} : "${word}"`]) as Array<[number]>;
    let room = LOOKUP_FILES;
    // Batches only where a row costs a request: a local index resolves them all at once (two statements, not two a batch).
    const batch = session.readsAhead ? RANKED_BATCH : Math.max(ranked.length, 1);
    for (let i = 0; i < ranked.length && room > 0; i += batch) {
      const ids = ranked.slice(i, i + batch).map((r) => Number(r[0]));
      const fileOf = chunkFilesOf(session, ids);
      const wanted = [...new Set(fileOf.values())].filter((f) => !seen.has(f));
      let rows = listedFiles(session, wanted);
      if (!rows) {
        session.prefetchRows('files', wanted);
        rows = session.arrays('SELECT id, hash, path, lang FROM files WHERE id IN (SELECT value FROM json_each(?)) AND hci_path_ok(path)', [JSON.stringify(wanted)]) as Array<[number, string, string, string]>;
      }
      const files = new Map(rows.map((r) => [Number(r[0]), r]));
      const inOrder = ids.flatMap((id) => {
        const f = files.get(fileOf.get(id) ?? -1);
        return f ? [[Number(f[0]), f[1], f[2], f[3]] as [number, string, string, string]] : [];
      });
      const before = out.length;
      add(inOrder, room);
      room -= out.length - before;
    }
    return out;
  });
}

/** Chunk id → file id: from a packed index's chunk → file runs (no row read), else from the chunks' rows (read ahead). */
function chunkFilesOf(session: SearchSession, ids: readonly number[]): Map<number, number> {
  const runs = session.chunkFiles();
  if (runs) return new Map(ids.flatMap((id) => {
    const file = runs.fileOf(id);
    return file === undefined ? [] : [[id, file] as const];
  }));
  session.prefetchRows('chunks', ids);
  return new Map((session.arrays('SELECT id, file_id FROM chunks WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify(ids)]) as Array<[number, number]>)
    .map(([id, fileId]) => [Number(id), Number(fileId)]));
}

/** Chunks the ranked lookup resolves to their files at a time over HTTP (one read-ahead of their rows). */
const RANKED_BATCH = 16;

/**
 * The files of the chunks whose symbol is exactly the name (lower-cased), declaring chunks first
 * (a method `Tarnish` before forty YAML keys `tarnish`, which filled the lookup's files in chunk
 * order), then in chunk order, at most LOOKUP_ROWS chunks. A packed index answers from its covering
 * index by symbol name (a few pages; it holds no kind, so the files of languages whose chunk symbols
 * are keys — JSON, YAML: keyPathSeparator in the language table — go last instead); a live one from
 * the FTS match of the word over the symbol column, joined to those chunks' rows — the same chunks:
 * a chunk's symbol column holds its symbol name (core/index/fts-row.ts).
 */
function exactlyNamed(session: SearchSession, word: string, lower: string): Array<[number, string, string, string]> {
  const indexed = session.cached('chunks-by-symbol', () => session.value("SELECT 1 FROM sqlite_schema WHERE type = 'index' AND name = ?", [CHUNKS_BY_SYMBOL]) !== undefined);
  if (indexed && session.packedFiles()) {
    // The chunks' files from a remote pack's file list (no files row read), in the same order. With
    // a path filter: every chunk so named, the filter applied to the list's paths, then the first
    // LOOKUP_ROWS — as the join below limits after the filter (it read a files page per request).
    const ids = session.arrays(`SELECT c.file_id FROM chunks c INDEXED BY ${CHUNKS_BY_SYMBOL} WHERE lower(c.symbol_name) = ? ORDER BY c.id${session.filtered ? '' : ` LIMIT ${LOOKUP_ROWS}`}`, [lower]).map((r) => Number(r[0]));
    const rows = listedFiles(session, ids);
    if (rows) {
      const keyed = (r: [number, string, string, string]) => (languageById(r[3])?.keyPathSeparator ? 1 : 0);
      return rows.slice(0, LOOKUP_ROWS).sort((a, b) => keyed(a) - keyed(b));
    }
  }
  const order = `ORDER BY c.symbol_kind IN (${DECLARING}) DESC, c.id`;
  if (indexed) {
    return session.arrays(
      `SELECT c.file_id, f.hash, f.path, f.lang FROM chunks c INDEXED BY ${CHUNKS_BY_SYMBOL} JOIN files f ON f.id = c.file_id
       WHERE lower(c.symbol_name) = ? AND hci_path_ok(f.path) ${order} LIMIT ${LOOKUP_ROWS}`,
      [lower],
    ) as Array<[number, string, string, string]>;
  }
  return session.arrays(
    `SELECT c.file_id, f.hash, f.path, f.lang FROM chunks_fts JOIN chunks c ON c.id = chunks_fts.rowid JOIN files f ON f.id = c.file_id
     WHERE chunks_fts MATCH ? AND lower(c.symbol_name) = ? AND hci_path_ok(f.path) ${order} LIMIT ${LOOKUP_ROWS}`,
    [`{symbol} : "${word}"`, lower],
  ) as Array<[number, string, string, string]>;
}

/** The files named after the name with one of the affixes (`RadzenTextBox.*` for "TextBox"), at most LOOKUP_FILES. */
function affixedStemFiles(session: SearchSession, name: string, affixes: Affixes): FileRef[] {
  const out: IndexedFile[] = [];
  for (const stem of [...affixes.prefixes.map((p) => p + name), ...affixes.suffixes.map((x) => name + x)]) {
    for (const f of stemFiles(session, stem.toLowerCase())) {
      if (session.filtered && !pathOk(session, f.path)) continue;
      out.push(f);
      if (out.length >= LOOKUP_FILES) return withHashes(session, out);
    }
  }
  return withHashes(session, out);
}

/** Whether the search's path filter lets a path through (hci_path_ok, asked of SQL as the channels do). */
function pathOk(session: SearchSession, path: string): boolean {
  return Number(session.db.selectValue('SELECT hci_path_ok(?)', [path])) === 1;
}

/** The index's files whose name before the first dot is `stem` (lower case), in id order (first-search-record.ts). */
function stemFiles(session: SearchSession, stem: string): readonly IndexedFile[] {
  return filesNamed(session, stem, fileHashes(session));
}

/** The hashes of files read so far, by id (kept per generation). */
function fileHashes(session: SearchSession): Map<number, string> {
  // A remote pack's file list carries them all (SearchSession.packedFiles): no files row read.
  return session.cached('file-hashes', () => new Map<number, string>([...session.packedFiles() ?? []].map(([id, f]) => [id, f.hash])));
}

/** The files of these ids (that the path filter lets through) from a remote pack's file list, as rows of files (id, hash, path, lang); null without one, or when it lacks one of them. */
function listedFiles(session: SearchSession, ids: readonly number[]): Array<[number, string, string, string]> | null {
  const listed = session.packedFiles();
  if (!listed || ids.some((id) => !listed.has(id))) return null;
  return ids.flatMap((id) => {
    const f = listed.get(id)!;
    return session.filtered && !pathOk(session, f.path) ? [] : [[id, f.hash, f.path, f.lang] as [number, string, string, string]];
  });
}

/** The files with their hashes, read by id (kept per generation). */
function withHashes(session: SearchSession, files: readonly IndexedFile[]): FileRef[] {
  if (!files.length) return [];
  const known = fileHashes(session);
  const missing = files.filter((f) => !known.has(f.fileId)).map((f) => f.fileId);
  if (missing.length) {
    session.prefetchRows('files', missing);
    const rows = session.arrays('SELECT id, hash FROM files WHERE id IN (SELECT value FROM json_each(?))', [JSON.stringify(missing)]) as Array<[number, string]>;
    for (const [id, hash] of rows) known.set(id, hash);
  }
  return files.flatMap((f) => {
    const hash = known.get(f.fileId);
    return hash === undefined ? [] : [{ ...f, hash }];
  });
}

/** chunkAt over the file's chunks given by id (a packed index's chunk → file runs). */
function chunkIn(session: SearchSession, ids: readonly number[], line: number): number | null {
  const v = session.value('SELECT id FROM chunks WHERE id IN (SELECT value FROM json_each(?)) AND start_line <= ? AND end_line >= ? ORDER BY ordinal LIMIT 1', [JSON.stringify(ids), line, line]);
  return v === undefined ? null : Number(v);
}

/** The id of the file's first chunk that holds `line` (null when no chunk does: a dropped secret chunk). */
function chunkAt(session: SearchSession, fileId: number, line: number): number | null {
  const st = session.statement('SELECT id FROM chunks WHERE file_id = ? AND start_line <= ? AND end_line >= ? ORDER BY ordinal LIMIT 1');
  try {
    st.bind([fileId, line, line]);
    return st.step() ? Number(st.get(0)) : null;
  } finally {
    st.reset(true);
  }
}

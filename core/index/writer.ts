// Row-level writes of the index: insert one prepared file with its chunks, delete one file with its
// FTS rows and chunk vectors. Owns the SQL for files/file_data/chunks/chunks_fts/files_tri/files_grams
// (and writing and deleting a file's file_facts and file_declarations rows, search/file-facts.ts; deleting a file's chunk_vectors; giving new chunks vectors is a ChunkVectorSink's); runs
// inside a write transaction that the caller (the indexer) opens. Decides nothing about which files
// change, nor whether the literal index is kept (literal-index.ts); the blob encoding is file-data.ts's.
import type { Database, Sqlite3Static } from '../sqlite/engine.ts';
import { FastStatement, lastInsertRowId, type BindValue } from '../sqlite/fast-statement.ts';
import type { ChunkDraft } from '../chunk/types.ts';
import type { FileOutline } from '../chunk/outline.ts';
import { decodeFileData, encodeFileDataSized, knownFtsSource, readStoredFile, storedChunkFts, storedFtsRows, type DeflateCodec, type DeflatedText, type EncodedFileData, type FtsSourceFile, type StoredFile } from './file-data.ts';
import { sliceLines } from './fts-row.ts';
import { chunkEmbeddingText } from '../vector/provider.ts';
import { gramBloom } from './gram-bloom.ts';
import { FTS_INSERT } from './fts-refill.ts';
import { packedFtsRow, type PackedFts } from './packed-fts.ts';
import { DECLS_DELETE, DECLS_INSERT, FACTS_DELETE, FACTS_INSERT, FILE_FACTS_TABLE, factsOf, namesJson, type FileFacts } from '../search/file-facts.ts';

export interface PreparedFile {
  path: string;
  lang: string;
  size: number;
  mtimeMs: number;
  hash: string;
  flags: number;
  /** The file's lines (chunk bodies are cut from them). */
  lines: readonly string[];
  /** The lines joined with '\n'. */
  text: string;
  chunks: ChunkDraft[];
  secretChunks: number;
  outline: FileOutline | null;
  /** `text` deflated by the parse worker that extracted the outline (the browser's): the writer does not deflate it again. */
  deflatedText?: DeflatedText;
}

/**
 * A file's rows, encoded before its write transaction. What waits in a batch is this: the deflated
 * blob and the chunk bounds, not the file's lines, text, outline or FTS values (kept for a batch,
 * those outlived young-generation collections and filled the old generation with garbage: peak
 * RSS). The FTS values are derived from the blob as the rows are inserted (insertFile).
 */
export interface FileRows {
  path: string;
  lang: string;
  size: number;
  mtimeMs: number;
  hash: string;
  lineCount: number;
  flags: number;
  secretChunks: number;
  data: Uint8Array;
  /** The blob's inflated length (so decoding it allocates once). */
  rawLength: number;
  /**
   * The blob's text and the headers, keys and file context of its meta, when decoding it would give
   * exactly these (file-data.ts EncodedFileData): the FTS rows are derived from them, not from the
   * blob inflated again. One flat string and a few short arrays per file, not its lines or outline.
   */
  known?: EncodedFileData['known'];
  chunks: Array<{ startLine: number; endLine: number; kind: string; symbolKind: string | null; symbolName: string | null }>;
  /**
   * Its chunks' FTS values, when a parse worker derived them (ready-rows.ts: as insertFile would, from
   * what the blob holds): bound as they are.
   */
  fts?: PackedFts;
  /** The names its outline declares and whether a stored line is dead (search/file-facts.ts): its file_facts row, when either; its live declarations' rows. */
  facts: FileFacts;
}

export function fileRows(f: PreparedFile, codec: DeflateCodec): FileRows {
  const { data, rawLength, known } = encodeFileDataSized({ lines: f.lines, text: f.text, chunks: f.chunks, allKept: f.secretChunks === 0, outline: f.outline, deflatedText: f.deflatedText }, codec);
  return {
    path: f.path,
    lang: f.lang,
    size: f.size,
    mtimeMs: Math.trunc(f.mtimeMs),
    hash: f.hash,
    lineCount: f.lines.length,
    flags: f.flags,
    secretChunks: f.secretChunks,
    data,
    rawLength,
    ...(known ? { known } : {}),
    chunks: f.chunks.map((c) => ({ startLine: c.startLine, endLine: c.endLine, kind: c.kind, symbolKind: c.symbol?.kind ?? null, symbolName: c.symbol?.name ?? null })),
    // (Facts of the lines the blob keeps: a dropped secret chunk's are empty there. A leading BOM, which the blob
    // leaves out, changes no dead line: deadLines reads lines trimmed.)
    facts: factsOf(f.outline?.nodes ?? [], f.secretChunks === 0 ? f.lines : decodeFileData(data, codec, rawLength).lines, f.lang, f.chunks),
  };
}

/**
 * What the semantic channel does with a file's chunks inside the transaction that writes them
 * (core/vector/inline.ts): keep the vectors of chunks about to be deleted (an unchanged chunk text
 * reuses its vector), then give the new chunks vectors (from that cache, or embedded on the spot
 * by a synchronous provider). Deleting vectors with their chunks is the writer's own job.
 */
export interface ChunkVectorSink {
  harvest(db: Database, fileId: number): void;
  put(db: Database, chunks: ReadonlyArray<{ id: number; text: string }>): void;
}

/**
 * Writes files inside one transaction with statements prepared once. Create one per transaction
 * and `close()` it before the transaction ends.
 */
export class RowWriter {
  private readonly statements = new Map<string, FastStatement>();

  constructor(
    private readonly db: Database,
    private readonly sqlite3: Sqlite3Static,
    private readonly codec: DeflateCodec,
    private readonly opts: {
      vectors?: ChunkVectorSink;
      /** Whether the literal index (files_tri) is kept: then every file's text is written to it too. */
      literal?: boolean;
    } = {},
  ) {}

  private run(sql: string, bind: BindValue[]): void {
    let st = this.statements.get(sql);
    if (!st) this.statements.set(sql, (st = new FastStatement(this.sqlite3, this.db, this.db.prepare(sql))));
    st.run(bind);
  }

  private lastRowId(): number {
    return lastInsertRowId(this.sqlite3, this.db);
  }

  /** Removes a file with its chunks, FTS rows (the contentless table needs the inserted values back) and key hashes. */
  deleteFile(fileId: number): void {
    const path = this.db.selectValue('SELECT path FROM files WHERE id = ?', [fileId]) as string | undefined;
    if (path === undefined) return;
    const stored = readStoredFile(this.db, fileId, this.codec);
    if (stored) {
      for (const row of storedFtsRows(this.db, fileId, path, stored)) this.run(FTS_DELETE, [row.id, ...row.values]);
      if (this.opts.literal) this.run(TRI_DELETE, [fileId, literalText(stored)]);
    }
    if (this.opts.literal) this.run(GRAMS_DELETE, [fileId]);
    // Its declarations' rows, by the names its facts row lists (the table is clustered by name).
    const names = this.db.selectValue(`SELECT names FROM ${FILE_FACTS_TABLE} WHERE file_id = ?`, [fileId]) as string | undefined;
    if (names) this.run(DECLS_DELETE, [namesJson(names), fileId]);
    this.run(FACTS_DELETE, [fileId]);
    this.opts.vectors?.harvest(this.db, fileId);
    // Vectors go with their chunks, in the same transaction: they can never outlive them.
    this.run('DELETE FROM chunk_vectors WHERE chunk_id IN (SELECT id FROM chunks WHERE file_id = ?)', [fileId]);
    this.run('DELETE FROM chunks WHERE file_id = ?', [fileId]);
    this.run('DELETE FROM file_data WHERE file_id = ?', [fileId]);
    this.run('DELETE FROM files WHERE id = ?', [fileId]);
  }

  insertFile(f: FileRows, generation: number): number {
    this.run(
      `INSERT INTO files(path, lang, size, mtime_ms, hash, line_count, flags, secret_chunks, generation)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [f.path, f.lang, f.size, f.mtimeMs, f.hash, f.lineCount, f.flags, f.secretChunks, generation],
    );
    const fileId = this.lastRowId();
    this.run('INSERT INTO file_data(file_id, data) VALUES (?, ?)', [fileId, f.data]);
    // (The table is there: the indexer makes it before any write, file-facts.ts beginFileFacts.)
    if (f.facts.names || f.facts.dead) this.run(FACTS_INSERT, [fileId, f.facts.names, f.facts.dead ? 1 : 0]);
    // The FTS values come from the blob's content, as a delete will derive them (storedFtsRows):
    // packed by the worker that made the blob, known when it was encoded, else decoded from it.
    let source: FtsSourceFile | undefined;
    const stored = () => (source ??= f.known ? knownFtsSource(f.known) : decodeFileData(f.data, this.codec, f.rawLength));
    const ids: number[] = [];
    f.chunks.forEach((c, ordinal) => {
      this.run(
        `INSERT INTO chunks(file_id, ordinal, start_line, end_line, kind, symbol_kind, symbol_name)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
        [fileId, ordinal, c.startLine, c.endLine, c.kind, c.symbolKind, c.symbolName],
      );
      const id = this.lastRowId();
      ids.push(id);
      this.run(FTS_INSERT, [id, ...(f.fts ? packedFtsRow(f.fts, ordinal) : storedChunkFts(f.path, stored(), { ordinal, ...c }))]);
    });
    for (const d of f.facts.declarations) this.run(DECLS_INSERT, [d.symbol.toLowerCase(), fileId, d.seq, d.symbol, d.kind, d.line, ids[d.chunk], d.arity]);
    if (this.opts.literal) {
      const text = literalText(stored());
      this.run(TRI_INSERT, [fileId, text]);
      this.run(GRAMS_INSERT, [fileId, gramBloom(text)]);
    }
    const vectors = this.opts.vectors;
    if (vectors && ids.length) {
      vectors.put(this.db, f.chunks.map((c, ordinal) => ({
        id: ids[ordinal],
        text: chunkEmbeddingText({ path: f.path, header: stored().headers[ordinal] ?? '', body: sliceLines(stored().lines, c.startLine, c.endLine) }),
      })));
    }
    return fileId;
  }

  close(): void {
    for (const st of this.statements.values()) st.finalize();
    this.statements.clear();
  }
}

const FTS_DELETE = "INSERT INTO chunks_fts(chunks_fts, rowid, path, symbol, header, body, idents, cjk) VALUES ('delete', ?, ?, ?, ?, ?, ?, ?)";
export const TRI_INSERT = 'INSERT INTO files_tri(rowid, text) VALUES (?, ?)';
const TRI_DELETE = "INSERT INTO files_tri(files_tri, rowid, text) VALUES ('delete', ?, ?)";
/** A file's gram filter (gram-bloom.ts), kept with its files_tri row. */
export const GRAMS_INSERT = 'INSERT OR REPLACE INTO files_grams(file_id, bloom) VALUES (?, ?)';
const GRAMS_DELETE = 'DELETE FROM files_grams WHERE file_id = ?';

/** What the literal index holds of a file: its stored text, the lines a literal or regex search checks. */
export function literalText(stored: Pick<StoredFile, 'lines'>): string {
  return stored.lines.join('\n');
}


// Row-level writes of the index: insert one prepared file with its chunks, delete one file with its
// FTS rows, bump the generation. Owns the SQL for files/chunks/chunks_fts; runs inside a write
// transaction that the caller (the indexer) opens. Decides nothing about which files change.
import type { Database } from '../sqlite/engine.ts';
import type { ChunkDraft } from '../chunk/types.ts';
import { flattenOutline, type FileOutline } from '../chunk/outline.ts';
import { ftsValues, sliceLines } from './fts-row.ts';

export interface PreparedFile {
  path: string;
  lang: string;
  size: number;
  mtimeMs: number;
  hash: string;
  flags: number;
  /** The file's lines (chunk bodies are cut from them). */
  lines: string[];
  chunks: ChunkDraft[];
  secretChunks: number;
  outline: FileOutline | null;
}

export function deleteFile(db: Database, fileId: number): void {
  const path = db.selectValue('SELECT path FROM files WHERE id = ?', [fileId]) as string | undefined;
  if (path === undefined) return;
  const rows = db.selectObjects(
    'SELECT id, symbol_kind, symbol_name, member_key, header, body FROM chunks WHERE file_id = ?',
    [fileId],
  ) as Array<{ id: number; symbol_kind: string | null; symbol_name: string | null; member_key: string | null; header: string; body: string }>;
  const del = db.prepare(
    "INSERT INTO chunks_fts(chunks_fts, rowid, path, symbol, header, body, idents) VALUES ('delete', ?, ?, ?, ?, ?, ?)",
  );
  try {
    for (const r of rows) {
      const values = ftsValues({ path, symbolKind: r.symbol_kind, symbolName: r.symbol_name, memberKey: r.member_key, header: r.header, body: r.body });
      del.bind([r.id, ...values]).stepReset();
    }
  } finally {
    del.finalize();
  }
  db.exec('DELETE FROM chunks WHERE file_id = ?', { bind: [fileId] });
  db.exec('DELETE FROM symbols WHERE file_id = ?', { bind: [fileId] });
  db.exec('DELETE FROM files WHERE id = ?', { bind: [fileId] });
}

export function insertFile(db: Database, f: PreparedFile, generation: number): number {
  db.exec(
    `INSERT INTO files(path, lang, size, mtime_ms, hash, line_count, flags, secret_chunks, generation)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    { bind: [f.path, f.lang, f.size, Math.trunc(f.mtimeMs), f.hash, f.lines.length, f.flags, f.secretChunks, generation] },
  );
  const fileId = Number(db.selectValue('SELECT last_insert_rowid()'));
  const insChunk = db.prepare(
    `INSERT INTO chunks(file_id, ordinal, start_line, end_line, kind, symbol_kind, symbol_name, member_key, header, body)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const insFts = db.prepare('INSERT INTO chunks_fts(rowid, path, symbol, header, body, idents) VALUES (?, ?, ?, ?, ?, ?)');
  try {
    f.chunks.forEach((c, ordinal) => {
      const body = sliceLines(f.lines, c.startLine, c.endLine);
      insChunk.bind([fileId, ordinal, c.startLine, c.endLine, c.kind, c.symbol?.kind ?? null, c.symbol?.name ?? null, c.symbol?.memberKey ?? null, c.header, body]);
      insChunk.step();
      const chunkId = Number(insChunk.get(0));
      insChunk.reset();
      const values = ftsValues({
        path: f.path,
        symbolKind: c.symbol?.kind ?? null,
        symbolName: c.symbol?.name ?? null,
        memberKey: c.symbol?.memberKey ?? null,
        header: c.header,
        body,
      });
      insFts.bind([chunkId, ...values]).stepReset();
    });
  } finally {
    insChunk.finalize();
    insFts.finalize();
  }
  if (f.outline) insertSymbols(db, fileId, f.outline);
  return fileId;
}

function insertSymbols(db: Database, fileId: number, outline: FileOutline): void {
  const ins = db.prepare(
    `INSERT INTO symbols(file_id, parent_id, ordinal, depth, kind, name, member_key, start_line, end_line)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  );
  const ids: number[] = [];
  try {
    flattenOutline(outline).forEach(({ node, parent, depth }, ordinal) => {
      ins.bind([fileId, parent >= 0 ? ids[parent] : null, ordinal, depth, node.kind, node.name, node.memberKey ?? null, node.startLine, node.endLine]);
      ins.step();
      ids.push(Number(ins.get(0)));
      ins.reset();
    });
  } finally {
    ins.finalize();
  }
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

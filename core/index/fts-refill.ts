// Rebuilding chunks_fts from the files' stored blobs (the format 5 → 6 migration in schema.ts, after
// chunks_fts was recreated), and the FTS insert statement it shares with writer.ts. Its own module so
// that opening an index (schema.ts) does not load the writer; the FTS column values are fts-row.ts's,
// the blob decoding file-data.ts's.
import type { Database } from '../sqlite/engine.ts';
import { readStoredFile, storedFtsRows, type DeflateCodec } from './file-data.ts';

export const FTS_INSERT = 'INSERT INTO chunks_fts(rowid, path, symbol, header, body, idents, cjk) VALUES (?, ?, ?, ?, ?, ?, ?)';

/**
 * Inserts the FTS rows of every stored chunk again, from the files' blobs (the format 5 → 6
 * migration, after chunks_fts was recreated), read with the index's codec.
 */
export function refillChunksFts(db: Database, codec: DeflateCodec): void {
  const files = db.selectArrays('SELECT id, path FROM files ORDER BY id') as Array<[number, string]>;
  const st = db.prepare(FTS_INSERT);
  try {
    for (const [id, path] of files) {
      const stored = readStoredFile(db, Number(id), codec);
      if (!stored) continue;
      for (const row of storedFtsRows(db, Number(id), String(path), stored)) st.bind([row.id, ...row.values]).stepReset();
    }
  } finally {
    st.finalize();
  }
}

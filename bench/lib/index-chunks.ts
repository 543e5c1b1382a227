// Reads every stored chunk of an hci index back as the text the semantic channel embeds (path,
// indexed header, body, cut from the file's deflated file_data blob by core's own readers), with
// its chunk id and file path. Used by the vector evaluation and benchmarks; owns nothing else.
import { readStoredChunks, readStoredFile } from '../../core/index/file-data.ts';
import { fflateCodec } from '../../core/index/fflate-codec.ts';
import { chunkEmbeddingText } from '../../core/vector/provider.ts';
import { openIndex } from './chunks.ts';

export interface IndexChunk {
  id: number;
  path: string;
  startLine: number;
  endLine: number;
  text: string;
}

/** All chunks of the index at `<root>/.hci/index.sqlite`, by file id, then ordinal. */
export async function readIndexChunks(root: string): Promise<IndexChunk[]> {
  const db = await openIndex(root);
  try {
    db.exec('BEGIN');
    const files = db.selectArrays('SELECT id, path FROM files ORDER BY id') as Array<[number, string]>;
    const out: IndexChunk[] = [];
    for (const [fileId, path] of files) {
      const stored = readStoredFile(db, fileId, fflateCodec);
      if (!stored) continue;
      for (const c of readStoredChunks(db, fileId, stored)) {
        out.push({ id: c.id, path, startLine: c.startLine, endLine: c.endLine, text: chunkEmbeddingText({ path, header: c.header, body: c.body }) });
      }
    }
    db.exec('COMMIT');
    return out;
  } finally {
    db.close();
  }
}

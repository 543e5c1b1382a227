// The vector channel: chunks nearest to the query's embedding by exact KNN over one model's stored
// vectors (core/vector/knn.ts: the WASM SIMD int8 scan, or its JS twin), within the session's path
// filter. Built per search (it holds the query vector and the loaded scan of the index generation:
// core/vector/semantic.ts prepares both); registered in the mode table's semantic and hybrid rows.
// Owns turning neighbours into chunk rows and what explain shows of them.
import type { KnnIndex } from '../../vector/knn.ts';
import { round } from '../candidates.ts';
import type { Channel, ChannelHit } from './channel.ts';

export interface VectorQueryInput {
  knn: KnnIndex;
  /** The query's embedding (unit length), or a chunk's own vector for "more like this". */
  query: Float32Array;
  /** The model key string, for explain. */
  model: string;
  minScore?: number;
  /** Chunks never returned (similar: the chunk asked about). */
  exclude?: ReadonlySet<number>;
}

const COLS = 'c.id, c.file_id, c.ordinal, f.path, f.hash, f.lang, f.flags, c.start_line, c.end_line, c.symbol_kind, c.symbol_name';

export function vectorChannel(v: VectorQueryInput): Channel {
  return {
    name: 'vector',
    hitKind: 'text_vector',
    scoreField: 'vec_score',

    search(session, _q, pool) {
      // A path filter can drop many neighbours: ask for more then (still exact, still one scan).
      const want = pool + (v.exclude?.size ?? 0);
      const k = session.filtered ? Math.min(v.knn.count, Math.max(want * 8, 512)) : want;
      const hits = v.knn.search(v.query, { k, minScore: v.minScore });
      if (!hits.length) return [];
      const score = new Map(hits.map((h) => [h.id, h.score]));
      // One query for the rows (json_each keeps it one statement); a chunk deleted since the scan was loaded drops out.
      const rows = session.db.selectArrays(
        `SELECT ${COLS} FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))${session.filtered ? ' AND hci_path_ok(f.path)' : ''}`,
        [JSON.stringify(hits.map((h) => h.id))],
      ) as unknown[][];
      const out: ChannelHit[] = rows
        .filter((r) => !v.exclude?.has(Number(r[0])))
        .map(([chunkId, fileId, ordinal, path, hash, lang, flags, startLine, endLine, symbolKind, symbolName]) => ({
          row: {
            chunkId: Number(chunkId), fileId: Number(fileId), ordinal: Number(ordinal), path: String(path), hash: String(hash), lang: String(lang),
            flags: Number(flags), startLine: Number(startLine), endLine: Number(endLine),
            symbolKind: (symbolKind as string | null) ?? null, symbolName: (symbolName as string | null) ?? null,
          },
          score: score.get(Number(chunkId))!,
        }));
      // The scan's order: score, then chunk id (the kernel's tie-break).
      out.sort((a, b) => b.score - a.score || a.row.chunkId - b.row.chunkId);
      return out.slice(0, pool);
    },

    explain(entry) {
      return { cosine: round(entry.score), model: v.model, scan: v.knn.backend };
    },
  };
}

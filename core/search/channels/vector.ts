// The vector channel: chunks nearest to the query's embedding by exact KNN over one model's stored
// vectors (core/vector/knn.ts: the WASM SIMD int8 scan, or its JS twin), within the session's path
// filter. Built per search (it holds the query vector and the loaded scan of the index generation:
// core/vector/semantic.ts prepares both); registered in the mode table's semantic and hybrid rows.
// Owns turning neighbours into chunk rows and what explain shows of them.
import type { KnnIndex } from '../../vector/knn.ts';
import { round } from '../candidates.ts';
import { rawRows } from '../../sqlite/raw-rows.ts';
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
/** The rows of a scan's hits (a JSON array of chunk ids), without and with the search's path filter. */
const ROWS = `SELECT ${COLS} FROM chunks c JOIN files f ON f.id = c.file_id WHERE c.id IN (SELECT value FROM json_each(?))`;
const ROWS_FILTERED = `${ROWS} AND hci_path_ok(f.path)`;

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
      // One statement for the rows (json_each keeps it one), prepared once per connection and read
      // straight from WASM memory (as the keyword channel's rows: preparing it and oo1's getters were
      // most of this channel's cost after the scan); a chunk deleted since the scan was loaded drops out.
      const st = session.statement(session.filtered ? ROWS_FILTERED : ROWS);
      const out: ChannelHit[] = [];
      try {
        st.bind([JSON.stringify(hits.map((h) => h.id))]);
        const raw = rawRows(session.db, st);
        while (raw.step()) {
          const chunkId = raw.double(0);
          if (v.exclude?.has(chunkId)) continue;
          out.push({
            row: {
              chunkId, fileId: raw.double(1), ordinal: raw.int(2), path: raw.text(3) ?? '', hash: raw.text(4) ?? '', lang: raw.text(5) ?? '',
              flags: raw.int(6), startLine: raw.int(7), endLine: raw.int(8), symbolKind: raw.text(9), symbolName: raw.text(10),
            },
            score: score.get(chunkId)!,
          });
        }
      } finally {
        st.reset(true);
      }
      // The scan's order: score, then chunk id (the kernel's tie-break).
      out.sort((a, b) => b.score - a.score || a.row.chunkId - b.row.chunkId);
      return out.slice(0, pool);
    },

    explain(entry) {
      return { cosine: round(entry.score), model: v.model, scan: v.knn.backend };
    },
  };
}

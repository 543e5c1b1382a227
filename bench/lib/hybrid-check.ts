// Hybrid against keyword on the same golden queries (bench/eval.ts's hci and hci-hybrid engines):
// which queries lost keyword's rank-1 hit, and on how many hybrid ranked the first relevant file
// better or worse. Owns this comparison only; the metrics are bench/lib/metrics.ts's.
import type { Metrics } from './metrics.ts';

interface Outcome { id: string; query: string; kind: string; metrics: Pick<Metrics, 'recall1' | 'mrr10'> }
interface Engine { engine: string; queries: readonly Outcome[] }

export interface HybridCheck {
  /** Queries keyword answered at rank 1 and hybrid did not. */
  lost: Array<{ id: string; query: string; kind: string }>;
  rank1Keyword: number;
  better: number;
  worse: number;
}

export function hybridCheck(engines: readonly Engine[], keyword = 'hci', hybrid = 'hci-hybrid'): HybridCheck | null {
  const kw = engines.find((e) => e.engine === keyword);
  const hy = engines.find((e) => e.engine === hybrid);
  if (!kw || !hy) return null;
  const out: HybridCheck = { lost: [], rank1Keyword: 0, better: 0, worse: 0 };
  kw.queries.forEach((k, i) => {
    const h = hy.queries[i];
    if (k.metrics.recall1 > 0) {
      out.rank1Keyword++;
      if (!(h.metrics.recall1 > 0)) out.lost.push({ id: k.id, query: k.query, kind: k.kind });
    }
    if (h.metrics.mrr10 > k.metrics.mrr10) out.better++;
    else if (h.metrics.mrr10 < k.metrics.mrr10) out.worse++;
  });
  return out;
}

export function formatHybridCheck(c: HybridCheck): string {
  return `hci-hybrid against hci (keyword): better first relevant rank on ${c.better} queries, worse on ${c.worse}; keyword rank-1 hits lost: ${c.lost.length} of ${c.rank1Keyword}` +
    (c.lost.length ? ` — ${c.lost.map((l) => `${l.id || l.query} (${l.kind}: "${l.query}")`).join('; ')}` : '');
}

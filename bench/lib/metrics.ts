// The per-query retrieval metrics every eval reports (R@1/5/10, MRR@10, nDCG@10 over distinct files,
// and nDCG@10 over the first ten hits as returned),
// in a module of their own: the evals (bench/eval.ts, semantic-eval.ts, vector-eval.ts) all import them,
// and eval.ts imports semantic-eval.ts when it runs — a metric living in eval.ts made that import a cycle
// through the main module's top-level await, which Node settles never (exit 13, "unsettled top-level await").
export interface Metrics {
  n: number;
  recall1: number;
  recall5: number;
  recall10: number;
  mrr10: number;
  ndcg10: number;
  /**
   * nDCG@10 over the first ten hits AS RETURNED (two chunks of one file take two slots), as an
   * external benchmark measures search tools: binary relevance judged per hit by its file, a file
   * earning at its first hit only (a repeat takes a slot and earns nothing: counted again, capped at
   * 1, `a a x b` for relevant a, b would score a perfect 1 with b pushed to rank 4), IDCG over the
   * relevant files (at most ten). A page that repeats a file pushes other files' answers down: this
   * falls below ndcg10 (the same list collapsed to distinct files).
   */
  ndcg10Returned: number;
}

export const TOP = 10;

export function scoreQuery(ranked: readonly string[], relevant: readonly string[]): Omit<Metrics, 'n'> & { ranks: Array<number | null> } {
  const top = distinct(ranked).slice(0, TOP);
  const rel = new Set(relevant);
  const ranks = relevant.map((r) => {
    const i = top.indexOf(r);
    return i < 0 ? null : i + 1;
  });
  const within = (k: number) => top.slice(0, k).filter((p) => rel.has(p)).length / Math.min(k, rel.size);
  const first = top.findIndex((p) => rel.has(p));
  let dcg = 0;
  top.forEach((p, i) => {
    if (rel.has(p)) dcg += 1 / Math.log2(i + 2);
  });
  let idcg = 0;
  for (let i = 0; i < Math.min(rel.size, TOP); i++) idcg += 1 / Math.log2(i + 2);
  let returned = 0;
  const earned = new Set<string>();
  ranked.slice(0, TOP).forEach((p, i) => {
    if (rel.has(p) && !earned.has(p)) returned += 1 / Math.log2(i + 2);
    earned.add(p);
  });
  return {
    recall1: within(1), recall5: within(5), recall10: within(10), mrr10: first < 0 ? 0 : 1 / (first + 1), ndcg10: idcg ? dcg / idcg : 0,
    ndcg10Returned: idcg ? returned / idcg : 0, ranks,
  };
}

export function distinct(paths: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const p of paths) {
    if (!p || seen.has(p)) continue;
    seen.add(p);
    out.push(p);
  }
  return out;
}

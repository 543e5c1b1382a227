// The set-up each baseline runs with by default: the best of its variants (the set-ups listed next
// to each engine) over the sample workspace's hand-written set and the generated 2,000-file set's
// planted facts, by mean MRR@10 over the two (Recall@5 to break ties). `npm run eval -- --variants`
// re-scores every variant; bench/README.md lists what each scored. Owns these choices only.
export const DEFAULT_VARIANT = {
  orama: 'whole',
  minisearch: 'or',
  plain: 'no-stop-words',
  rg: 'whole',
} as const;

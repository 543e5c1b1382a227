// The set-up each baseline runs with by default: the best of its variants (the set-ups listed next
// to each engine: ORAMA_VARIANTS, MINISEARCH_VARIANTS, PLAIN_VARIANTS, RIPGREP_VARIANTS) by mean
// MRR@10 over four golden sets — the sample workspace's hand-written set, the generated 2,000-file
// set's planted facts, and the public dev set (FluentAvalonia, MudBlazor). `npm run eval --
// --variants` re-scores every variant; bench/results/eval-*-variants.md hold the runs this choice
// was made on, and bench/README.md sums them up. Owns these choices only.
export const DEFAULT_VARIANT = {
  orama: 'whole',
  minisearch: 'or',
  plain: 'porter-no-stop-words',
  rg: 'whole+parts',
} as const;

#!/usr/bin/env bash
# bench/rank-variants.ts over the 17 probe indexes (ROOT, default /work/corpora/probe15, built by
# bench/probe-build.ts) with this checkout: ranking set-ups side by side, per set and query type.
# usage: bench/variants.sh OUT [--variant base='{}' --variant x='{"setting":1}' …] [--mode hybrid]
# writes OUT.json and OUT.md; compare two checkouts' runs with bench/variants-compare.ts.
set -eu
out=$1; shift
cd "$(dirname "$0")/.."
. bench/lib/probe-sets.sh
nice -n 5 node --experimental-transform-types bench/rank-variants.ts "${sets[@]}" --out "$out.json" --md "$out.md" "$@"

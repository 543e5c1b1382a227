#!/usr/bin/env bash
# bench/rerank-dump.ts over the 17 probe indexes (ROOT, default /work/corpora/probe15) with this
# checkout: the golden sets as variants.sh reads them (bench/golden, the dev set's under DEV_GOLDEN).
# usage: bench/rerank-dump.sh OUT.ndjson [--settings '{…}']; then bench/rerank-fit.ts --dump OUT.ndjson
set -eu
out=$1; shift
cd "$(dirname "$0")/.."
. bench/lib/probe-sets.sh
nice -n 5 node --experimental-transform-types bench/rerank-dump.ts "${sets[@]}" --out "$out" "$@"

#!/usr/bin/env bash
# bench/miss-anatomy.ts over the 17 probe indexes (ROOT, default /work/corpora/probe15; opened in place,
# nothing written) with this checkout: the golden sets as variants.sh reads them.
# usage: bench/miss-anatomy.sh OUT.md [--settings '{…}'] [--out rows.json]
set -eu
out=$1; shift
cd "$(dirname "$0")/.."
. bench/lib/probe-sets.sh
nice -n 5 node --experimental-transform-types bench/miss-anatomy.ts "${sets[@]}" --md "$out" "$@" > /dev/null

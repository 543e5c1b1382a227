#!/usr/bin/env bash
# bench/type-names.ts over the 17 probe indexes (ROOT, default /work/corpora/probe15) with this checkout.
# usage: bench/type-names.sh OUT.md [more type-names.ts options, e.g. --settings '{}' --sample 200]
set -eu
root=${ROOT:-/work/corpora/probe15}
out=$1; shift
sets=()
for r in RadzenBlazor FluentValidation CleanArchitecture SukiUI Polly Humanizer excalidraw AvaloniaEdit v2rayN PixiEditor cheerio nodemailer xstate handlebars MudBlazor FluentAvalonia sample-workspace; do
  sets+=(--set "$r=$root/$r")
done
cd "$(dirname "$0")/.."
nice -n 5 node --experimental-transform-types bench/type-names.ts "${sets[@]}" --affixed --md "$out" "$@"

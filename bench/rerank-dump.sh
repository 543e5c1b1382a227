#!/usr/bin/env bash
# bench/rerank-dump.ts over the 17 probe indexes (ROOT, default /work/corpora/probe11) with this
# checkout: the golden sets as variants.sh reads them (bench/golden, the dev set's under DEV_GOLDEN).
# usage: bench/rerank-dump.sh OUT.ndjson [--settings '{…}']; then bench/rerank-fit.ts --dump OUT.ndjson
set -eu
root=${ROOT:-/work/corpora/probe11}
dev=${DEV_GOLDEN:-/work/shared/eval-dev/golden}
out=$1; shift
cd "$(dirname "$0")/.."
sets=()
for r in RadzenBlazor FluentValidation CleanArchitecture SukiUI Polly Humanizer excalidraw AvaloniaEdit v2rayN PixiEditor cheerio nodemailer xstate handlebars; do
  sets+=(--set "$r=bench/golden/$r.jsonl@$root/$r")
done
for r in MudBlazor FluentAvalonia; do
  sets+=(--set "$r=$dev/$r.jsonl@$root/$r")
done
sets+=(--set "sample=bench/golden/sample-workspace.jsonl@$root/sample-workspace")
nice -n 5 node --experimental-transform-types bench/rerank-dump.ts "${sets[@]}" --out "$out" "$@"

# Sourced by the probe-set scripts (rerank-dump.sh, miss-anatomy.sh): fills the array `sets` with the
# --set arguments of the 17 probe indexes under ROOT (default /work/corpora/probe15), golden sets as
# variants.sh reads them (bench/golden; the dev set's under DEV_GOLDEN). Run from the checkout's root.
root=${ROOT:-/work/corpora/probe15}
dev=${DEV_GOLDEN:-/work/shared/eval-dev/golden}
sets=()
for r in RadzenBlazor FluentValidation CleanArchitecture SukiUI Polly Humanizer excalidraw AvaloniaEdit v2rayN PixiEditor cheerio nodemailer xstate handlebars; do
  sets+=(--set "$r=bench/golden/$r.jsonl@$root/$r")
done
for r in MudBlazor FluentAvalonia; do
  sets+=(--set "$r=$dev/$r.jsonl@$root/$r")
done
sets+=(--set "sample=bench/golden/sample-workspace.jsonl@$root/sample-workspace")

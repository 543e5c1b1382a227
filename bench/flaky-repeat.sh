#!/usr/bin/env bash
# Runs test files repeatedly beside N background CPU burners and prints pass/fail counts per file (a
# flake hunt under load, as CI's 2-core machine may see it). Usage:
#   BURNERS=3 REPEAT=5 bench/flaky-repeat.sh test/a.test.ts test/b.test.ts ...
# Each repeat is one `vitest run` of the given files (their lanes' settings apply); the burners are
# `sh -c 'while :; do :; done'` at nice 0, killed on exit. Needs `npm run build` first for non-unit lanes.
# Prints one line per file per repeat (pass/fail, failed test names) and a tally at the end.
set -uo pipefail
cd "$(dirname "$0")/.."
burners=()
cleanup() { for p in "${burners[@]}"; do kill "$p" 2>/dev/null; done; }
trap cleanup EXIT INT TERM
for _ in $(seq 1 "${BURNERS:-0}"); do nice -n 0 sh -c 'while :; do :; done' & burners+=($!); done
out=$(mktemp -d)
for i in $(seq 1 "${REPEAT:-3}"); do
  load=$(cut -d' ' -f1 /proc/loadavg)
  npx vitest run "$@" --reporter=json --outputFile="$out/r$i.json" >"$out/r$i.log" 2>&1
  node -e '
    const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    for (const f of r.testResults) {
      const bad = f.assertionResults.filter((a) => a.status === "failed").map((a) => a.title + ": " + (a.failureMessages[0] || "").split("\n")[0].slice(0, 160));
      const rel = require("path").relative(process.cwd(), f.name);
      console.log(`run ${process.argv[2]} load ${process.argv[3]} ${rel} ${f.status === "passed" ? "pass" : "FAIL"}${bad.length ? " — " + bad.join(" | ") : f.status !== "passed" ? " — " + (f.message || "").split("\n")[0].slice(0, 160) : ""}`);
    }' "$out/r$i.json" "$i" "$load"
done | tee "$out/lines.txt"
echo "tally (burners ${BURNERS:-0}, logs in $out):"
awk '{ k = $5; if ($6 == "pass") p[k]++; else f[k]++; all[k] = 1 } END { for (k in all) printf "  %s: %d pass, %d fail\n", k, p[k] + 0, f[k] + 0 }' "$out/lines.txt"

// Traceability at scale: a generated C# workspace (indexed by hci), one thread of 10,000 messages with
// 20,000 attachments (half by member key, half by lines with an excerpt) and a few hundred explicit
// relations; then the sidecar rebuild (targets ≤ 2 s) and find latency (p95 ≤ 5 ms). The machine is
// shared, so each figure comes with a trivial baseline measured in the same run, interleaved with it:
// for the rebuild, reading the log and JSON.parse of every line; for find, the one index read a find
// makes (`outline` of the same file). Prints Markdown; writes bench-results/bench-intercom.json and
// .md (`--record`: also bench/results/). `npm run bench` runs it as its intercom section (bench.ts).
//   node dist/bench/intercom-bench.js [--messages 10000] [--attachments 20000] [--files 100] [--runs 7] [--queries 2000] [--record]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { openWorkspace, createNodeIntercom } from '../runtimes/node/index.ts';
import { mulberry32 } from './corpus-gen.ts';
import { fmtMB, fmtMs, fmtRatio, isMain, latencyStats, markdownTable, median, optInt, optString, parseArgs, percentile, repoRoot, writeJson } from './lib/util.ts';
import { commitInfo, recordResult } from './lib/record.ts';

const METHODS_PER_FILE = 30;

interface Member {
  file: string;
  key: string;
  start: number;
  end: number;
}

/** A class of METHODS_PER_FILE six-line methods per file. */
function csFile(i: number): string {
  const out = [`namespace Bench.Area${i % 10};`, '', `public class Service${i}`, '{'];
  for (let m = 0; m < METHODS_PER_FILE; m++) {
    out.push(`    public int Compute${m}(int value)`, '    {', `        var scaled = value * ${m + 2} + ${i};`, `        Audit("service ${i} step ${m}", scaled);`, '        return scaled;', '    }', '');
  }
  out.push('    private void Audit(string what, int value) { }', '}', '');
  return out.join('\n');
}

function timeIt<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
}

async function timeAsync<T>(fn: () => Promise<T>): Promise<[T, number, number]> {
  const t = performance.now();
  const c = process.cpuUsage();
  const out = await fn();
  const d = process.cpuUsage(c);
  return [out, performance.now() - t, (d.user + d.system) / 1000];
}

/** Measures, writes bench-results/bench-intercom.{json,md} (and with --record bench/results/), returns the figures and the Markdown. */
export async function runIntercomBench(argv: string[]): Promise<{ result: Record<string, unknown>; markdown: string }> {
  const { opts } = parseArgs(argv, ['record']);
  const commit = commitInfo();
  const loadAvgStart = os.loadavg();
  const messages = optInt(opts, 'messages', 10_000);
  const attachments = optInt(opts, 'attachments', 20_000);
  const files = optInt(opts, 'files', 100);
  const runs = Math.max(1, optInt(opts, 'runs', 7));
  const queries = Math.max(1, optInt(opts, 'queries', 2000));
  const relates = Math.max(0, optInt(opts, 'relates', 300));
  const rnd = mulberry32(20_261_201);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)];

  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-intercom-bench-'));
  try {
    for (let i = 0; i < files; i++) {
      const p = path.join(root, 'src', `Area${i % 10}`, `Service${i}.cs`);
      fs.mkdirSync(path.dirname(p), { recursive: true });
      fs.writeFileSync(p, csFile(i));
    }
    const ws = await openWorkspace(root);
    const [, indexMs] = await timeAsync(() => ws.index({ full: true }));
    // Real member keys and ranges, from hci's own outlines.
    const members: Member[] = [];
    const text = new Map<string, string[]>();
    for (let i = 0; i < files; i++) {
      const file = `src/Area${i % 10}/Service${i}.cs`;
      text.set(file, fs.readFileSync(path.join(root, file), 'utf8').split('\n'));
      const walk = (list: Array<{ kind: string; member_key?: string; start_line: number; end_line: number; children?: unknown[] }>) => {
        for (const s of list) {
          if (s.kind === 'method' && s.member_key) members.push({ file, key: s.member_key, start: s.start_line, end: s.end_line });
          if (s.children) walk(s.children as never);
        }
      };
      walk((await ws.outline(file)).symbols as never);
    }
    if (members.length < files * METHODS_PER_FILE) throw new Error(`expected ${files * METHODS_PER_FILE} methods in the outlines, got ${members.length}`);

    // The log: attachments spread 0..4 per message (exactly `attachments` in all), relations over short ranges.
    const lines: string[] = [];
    let left = attachments;
    for (let n = 1; n <= messages; n++) {
      const k = n === messages ? left : Math.min(left, Math.round(((n % 5) * attachments) / messages / 2));
      left -= k;
      const att = Array.from({ length: k }, (_, j) => {
        const m = pick(members);
        if ((n + j) % 2 === 0) return { file: m.file, member_key: m.key, shape: 'member', line_start: m.start, line_end: m.end };
        const from = m.start + 2;
        return { file: m.file, line_start: from, line_end: from + 1, member_key: null, excerpt: text.get(m.file)!.slice(from - 1, from + 1).join('\n') };
      });
      lines.push(JSON.stringify({ type: 'message_added', schema_version: 1, thread_id: 't1', message_id: `m${n}`, role: n % 2 ? 'user' : 'assistant', text: `message ${n} `.repeat(12), attachments: att }));
      if (relates && n % Math.max(1, Math.floor(messages / relates)) === 0 && n > 5) {
        const m = pick(members);
        const span = 1 + Math.floor(rnd() * 5);
        lines.push(JSON.stringify({
          type: 'message_range_related', schema_version: 1, thread_id: 't1', start_ordinal: n - span + 1, end_ordinal: n, source: 'agent',
          code_ref: { file: m.file, member_key: m.key, syntax_scope: 'method', shape: 'member', line_start: m.start, line_end: m.end },
        }));
      }
    }
    const logPath = path.join(root, 'events.ndjson');
    fs.writeFileSync(logPath, `${lines.join('\n')}\n`);
    const logBytes = fs.statSync(logPath).size;

    const ic = createNodeIntercom(ws, root);
    // Cold: no sidecar yet (the first find creates and fills it).
    const [cold, coldMs] = await timeAsync(() => ic.find({ log: logPath, thread_id: 't1', code_ref: `${members[0].file}:L${members[0].start}` }));
    if (cold.status === 'error' || !cold.sidecar?.rebuilt) throw new Error(`cold find failed: ${JSON.stringify(cold.error)}`);

    // Rebuild vs parsing the log, interleaved.
    const rebuild: number[] = [];
    const rebuildCpu: number[] = [];
    const parse: number[] = [];
    let summary: Awaited<ReturnType<typeof ic.rebuild>> | null = null;
    for (let r = 0; r < runs; r++) {
      const [, p] = timeIt(() => fs.readFileSync(logPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)));
      parse.push(p);
      const [s, ms, cpu] = await timeAsync(() => ic.rebuild(logPath));
      summary = s;
      rebuild.push(ms);
      rebuildCpu.push(cpu);
    }

    // Find vs the index read it makes, interleaved; half line refs, half member keys.
    const findMs: Record<'lines' | 'member', number[]> = { lines: [], member: [] };
    const baseMs: number[] = [];
    const findCpu: number[] = [];
    const baseCpu: number[] = [];
    let matches = 0;
    let rebuiltDuringFinds = 0;
    for (let q = -50; q < queries; q++) {
      const m = pick(members);
      const kind = q % 2 === 0 ? 'lines' : 'member';
      const code_ref = kind === 'lines' ? `${m.file}:L${m.start + 1}-${m.start + 3}` : `[M:${m.key}]`;
      const [, b, bc] = await timeAsync(() => ws.outline(m.file));
      const [res, ms, cpu] = await timeAsync(() => ic.find({ log: logPath, thread_id: 't1', code_ref }));
      if (res.status === 'error') throw new Error(`find ${code_ref} failed: ${JSON.stringify(res.error)}`);
      if (q < 0) continue; // warm-up
      if (res.sidecar?.rebuilt) rebuiltDuringFinds++;
      baseMs.push(b);
      baseCpu.push(bc);
      findMs[kind].push(ms);
      findCpu.push(cpu);
      matches += res.total;
    }
    const all = [...findMs.lines, ...findMs.member];
    const sidecarBytes = fs.statSync(path.join(root, '.hci', 'intercom-message-code.sqlite')).size;
    ic.close();
    ws.close();

    const result = {
      commit, machine: { node: process.version, cpus: os.cpus().length, loadAvgStart, loadAvgEnd: os.loadavg() },
      corpus: { files, methods: members.length, index_ms: indexMs },
      log: { messages, attachments, relates: lines.length - messages, bytes: logBytes, stats: summary?.log.stats.skipped },
      sidecar_bytes: sidecarBytes,
      cold_find_ms: coldMs,
      rebuild: { runs, ms: latencyStats(rebuild), cpu_ms: latencyStats(rebuildCpu), median_ms: median(rebuild), p95_ms: percentile(rebuild, 95), anchors: summary?.log.anchors },
      baseline_parse: { median_ms: median(parse), p95_ms: percentile(parse, 95) },
      rebuild_over_parse: median(rebuild) / median(parse),
      find: {
        queries: all.length, matches_per_find: matches / all.length, rebuilt_during_finds: rebuiltDuringFinds,
        all: latencyStats(all), lines: latencyStats(findMs.lines), member: latencyStats(findMs.member), cpu_ms: latencyStats(findCpu),
      },
      baseline_outline: latencyStats(baseMs),
      baseline_outline_cpu: latencyStats(baseCpu),
      find_over_outline_p50: percentile(all, 50) / percentile(baseMs, 50),
      targets: { rebuild_ms: 2000, find_p95_ms: 5 },
    };
    const md = [
      `## intercom — ${messages.toLocaleString('en-US')} messages, ${attachments.toLocaleString('en-US')} attachments, ${result.log.relates} relations; ${files} files, ${members.length} methods`,
      '',
      `log ${fmtMB(logBytes)} · sidecar ${fmtMB(sidecarBytes)} · index built in ${fmtMs(indexMs)} · cold first find (creates the sidecar) ${fmtMs(coldMs)}` +
        ` · commit ${commit.sha?.slice(0, 7) ?? '?'}${commit.dirty ? ' (dirty)' : ''} · load ${loadAvgStart[0].toFixed(1)}–${os.loadavg()[0].toFixed(1)}`,
      '',
      markdownTable(
        ['what', 'median', 'p95', 'baseline (same run)', 'baseline median', 'ratio (medians)', 'target'],
        [
          ['sidecar rebuild', fmtMs(median(rebuild)), fmtMs(percentile(rebuild, 95)), 'read + JSON.parse the log', fmtMs(median(parse)), fmtRatio(result.rebuild_over_parse), '≤ 2 s'],
          ['find (all)', fmtMs(result.find.all.p50), fmtMs(result.find.all.p95), 'outline of the same file', fmtMs(result.baseline_outline.p50), fmtRatio(result.find_over_outline_p50), 'p95 ≤ 5 ms'],
          ['find by lines', fmtMs(result.find.lines.p50), fmtMs(result.find.lines.p95), '', '', '', ''],
          ['find by member key', fmtMs(result.find.member.p50), fmtMs(result.find.member.p95), '', '', '', ''],
          ['rebuild, CPU time', fmtMs(median(rebuildCpu)), fmtMs(percentile(rebuildCpu, 95)), '', '', '', ''],
          ['find, CPU time', fmtMs(result.find.cpu_ms.p50), fmtMs(result.find.cpu_ms.p95), 'outline, CPU time', fmtMs(result.baseline_outline_cpu.p50), fmtRatio(result.find.cpu_ms.p50 / result.baseline_outline_cpu.p50), ''],
        ],
      ),
      '',
      'Wall time includes waiting for a core on a shared machine; CPU time (user + system, this process) does not.',
      '',
      `${runs} rebuilds, ${all.length} finds (${result.find.matches_per_find.toFixed(1)} matches on average; ${rebuiltDuringFinds} rebuilt during the finds).`,
      '',
    ].join('\n');
    const outDir = path.resolve(optString(opts, 'out') ?? path.join(repoRoot(), 'bench-results'));
    writeJson(path.join(outDir, 'bench-intercom.json'), result);
    fs.writeFileSync(path.join(outDir, 'bench-intercom.md'), `${md}\n`);
    if (opts.record === true) recordResult('bench-intercom', result, md);
    return { result, markdown: md };
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

if (isMain(import.meta.url)) {
  runIntercomBench(process.argv.slice(2)).then(({ markdown }) => process.stdout.write(`${markdown}\n`), (e) => {
    process.stderr.write(`${(e as Error).stack ?? e}\n`);
    process.exit(1);
  });
}

// What a semantic provider's vector phase costs, build against build: each build (a dist folder of
// hci, e.g. one from before a change and one after) indexes a fresh copy of the same corpus with the
// provider, in its own Node process, the builds interleaved `--repeat` times; each run reports the
// whole index run's wall and CPU (every thread of the process: user + system), the vector phase's
// wall and steps, and a digest of every stored vector (same digest: the builds wrote the same bits).
// The keyword pass is the same code in both builds, so the CPU difference is the vector phase's.
//
//   node dist/bench/model/phase-cost.js --root /work/corpora/devset/FluentAvalonia --provider combined \
//     --builds before=.scratch/dist-old,after=dist [--repeat 2] [--record NAME]
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { copyTree, markdownTable, median, optList, optString, parseArgs, runMain } from '../lib/util.ts';
import { commitInfo, recordResult } from '../lib/record.ts';

interface Run { build: string; repeat: number; indexWallMs: number; cpuMs: number; vectorMs: number; phases: Record<string, number>; chunks: number; vectors: number; digest: string }

/** In the child: index a copy of `root` with the build's runtime, print one Run as JSON. */
async function child(dist: string, root: string, provider: string): Promise<void> {
  const { openWorkspace } = (await import(pathToFileURL(path.resolve(dist, 'runtimes/node/index.js')).href)) as typeof import('../../runtimes/node/index.ts');
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-phase-'));
  try {
    const copy = path.join(work, 'corpus');
    copyTree(root, copy);
    const ws = await openWorkspace(copy, { settings: { semantic: { enabled: true, provider } } as never });
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let s;
    try {
      s = await ws.index({ full: true });
    } finally {
      ws.close();
    }
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const { openIndex } = await import('../lib/chunks.ts');
    const db = await openIndex(copy);
    const hash = createHash('sha256');
    let vectors = 0;
    try {
      for (const [id, vec] of db.selectArrays('SELECT v.chunk_id, hex(v.vec) FROM chunk_vectors v JOIN vector_models m ON m.id = v.model_id AND m.current = 1 ORDER BY v.chunk_id') as Array<[number, string]>) {
        hash.update(`${id}:${vec}\n`);
        vectors++;
      }
    } finally {
      db.close();
    }
    const v = s.vectors;
    process.stdout.write(`${JSON.stringify({ indexWallMs: Math.round(wall), cpuMs: Math.round((cpu.user + cpu.system) / 1000), vectorMs: v?.took_ms ?? 0, phases: v?.phases ?? {}, chunks: v?.chunks ?? 0, vectors, digest: hash.digest('hex').slice(0, 16) })}\n`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv, ['child']);
  const root = path.resolve(optString(opts, 'root') ?? '');
  const provider = optString(opts, 'provider') ?? 'combined';
  if (opts.child === true) {
    await child(optString(opts, 'dist')!, root, provider);
    return 0;
  }
  if (!fs.existsSync(root)) throw new Error('--root: the corpus folder to index');
  const builds = optList(opts, 'builds').map((b) => {
    const [name, dir] = b.includes('=') ? b.split('=', 2) : [path.basename(b), b];
    return { name, dir: path.resolve(dir) };
  });
  if (!builds.length) throw new Error('--builds name=distDir,…');
  const repeat = Number(optString(opts, 'repeat') ?? 2);
  const runs: Run[] = [];
  const self = new URL(import.meta.url).pathname;
  for (let r = 0; r < repeat; r++) {
    for (const b of r % 2 ? [...builds].reverse() : builds) {
      const out = execFileSync(process.execPath, [self, '--child', '--dist', b.dir, '--root', root, '--provider', provider], { encoding: 'utf8', maxBuffer: 64 << 20, stdio: ['ignore', 'pipe', 'inherit'] });
      const run = { build: b.name, repeat: r + 1, ...(JSON.parse(out.trim().split('\n').pop()!) as Omit<Run, 'build' | 'repeat'>) };
      runs.push(run);
      process.stderr.write(`${b.name} #${r + 1}: index ${(run.indexWallMs / 1000).toFixed(1)} s, CPU ${(run.cpuMs / 1000).toFixed(1)} s, vector phase ${(run.vectorMs / 1000).toFixed(1)} s, ${run.vectors} vectors, digest ${run.digest}\n`);
    }
  }
  const load = os.loadavg().map((x) => x.toFixed(1)).join(' / ');
  const s1 = (ms: number) => (ms / 1000).toFixed(1);
  const med = (b: string, f: (r: Run) => number) => median(runs.filter((r) => r.build === b).map(f));
  const text = [
    `### Vector phase cost: ${path.basename(root)}, provider ${provider} (${runs[0]?.chunks ?? 0} chunks; load average at the end ${load} on ${os.cpus().length} cores)`, '',
    markdownTable(['build', 'run', 'index wall s', 'index CPU s', 'vector phase s', 'vector phase steps (ms)', 'vectors', 'digest'],
      runs.map((r) => [r.build, String(r.repeat), s1(r.indexWallMs), s1(r.cpuMs), s1(r.vectorMs), Object.entries(r.phases).map(([k, v]) => `${k} ${v}`).join(', '), String(r.vectors), r.digest])), '',
    markdownTable(['build', 'median index CPU s', 'median vector phase s'], builds.map((b) => [b.name, s1(med(b.name, (r) => r.cpuMs)), s1(med(b.name, (r) => r.vectorMs))])), '',
    `Same vectors in every run: ${new Set(runs.map((r) => r.digest)).size === 1 ? 'yes' : 'NO'}.`,
  ].join('\n');
  const name = optString(opts, 'record');
  if (name) recordResult(name, { commit: commitInfo(), root, provider, builds, runs, load }, text);
  process.stdout.write(`${text}\n`);
  return 0;
}

await runMain(import.meta.url, 'phase-cost', main);

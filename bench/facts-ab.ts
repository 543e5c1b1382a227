// A/B of the per-file facts a parse worker computes beside the outline (core/index/prepare.ts
// extractFromBytes): the secret scan (findSecretLines) and the content hash, between two builds'
// dist/ folders, over every file of a tree as the indexer reads it (same extensions, same size cap),
// in one process, rounds alternated (A B A B …), CPU time per round. Also checks that both builds
// give the same findings and the same hash for every file. Owns only this measurement; the functions
// are the builds'.
//
//   node dist/bench/facts-ab.js --root DIR --build A=/path/to/distA --build B=/path/to/distB [--rounds 7] [--out FILE.md]
// A build's content hash is runtimes/node/content-hash.js when it has one (what its Node parse worker
// runs), else core's sha256Hex(bytes, 16).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { createNodeWorkspaceFs } from '../runtimes/node/workspace-fs.ts';
import { defaultSettings } from '../core/settings.ts';
import { scanWorkspace } from '../core/scan/walker.ts';
import { classifyContent } from '../core/scan/content.ts';
import { markdownTable, runMain } from './lib/util.ts';

interface Build {
  name: string;
  secrets: (text: string, lang?: string) => unknown[];
  hash: (bytes: Uint8Array) => string;
}

async function loadBuild(name: string, dist: string): Promise<Build> {
  const mod = async (rel: string) => import(pathToFileURL(path.join(dist, rel)).href) as Promise<Record<string, unknown>>;
  const { findSecretLines } = (await mod('core/scan/secrets.js')) as { findSecretLines: Build['secrets'] };
  const own = fs.existsSync(path.join(dist, 'runtimes/node/content-hash.js')) ? ((await mod('runtimes/node/content-hash.js')).nodeContentHash as Build['hash']) : null;
  const { sha256Hex } = (await mod('core/index/sha256.js')) as { sha256Hex: (b: Uint8Array, n?: number) => string };
  return { name, secrets: findSecretLines, hash: own ?? ((b) => sha256Hex(b, 16)) };
}

const cpuMs = (fn: () => void): number => {
  const c = process.cpuUsage();
  fn();
  const u = process.cpuUsage(c);
  return (u.user + u.system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

export async function main(argv: string[]): Promise<number> {
  let root = '';
  let rounds = 7;
  let out = '';
  const dists: Array<[string, string]> = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--root') root = path.resolve(argv[++i]);
    else if (a === '--rounds') rounds = Number(argv[++i]);
    else if (a === '--out') out = argv[++i];
    else if (a === '--build') {
      const [name, dir] = argv[++i].split('=');
      dists.push([name, path.resolve(dir)]);
    }
  }
  if (!root || dists.length !== 2) throw new Error('usage: --root DIR --build A=DIST --build B=DIST [--rounds N] [--out FILE.md]');
  const builds = await Promise.all(dists.map(([n, d]) => loadBuild(n, d)));
  const settings = defaultSettings();
  const scan = await scanWorkspace(createNodeWorkspaceFs(root), settings);
  const files = scan.files
    .filter((f) => f.size <= settings.max_indexed_file_bytes)
    .map((f) => ({ lang: f.lang, bytes: new Uint8Array(fs.readFileSync(path.join(root, f.path))) }))
    .map((f) => {
      const c = classifyContent(f.bytes, settings.binary_probe_bytes);
      return c.kind === 'binary' ? null : { ...f, text: c.text };
    })
    .filter((f) => f !== null);
  const bytes = files.reduce((n, f) => n + f.bytes.length, 0);
  let differ = 0;
  for (const f of files) {
    const [a, b] = builds;
    if (JSON.stringify(a.secrets(f.text, f.lang)) !== JSON.stringify(b.secrets(f.text, f.lang)) || a.hash(f.bytes) !== b.hash(f.bytes)) differ++;
  }
  const times = builds.map(() => ({ secrets: [] as number[], hash: [] as number[] }));
  for (let r = 0; r < rounds; r++) {
    builds.forEach((b, k) => {
      times[k].secrets.push(cpuMs(() => { for (const f of files) b.secrets(f.text, f.lang); }));
      times[k].hash.push(cpuMs(() => { for (const f of files) b.hash(f.bytes); }));
    });
  }
  const fmt = (xs: number[]) => `${median(xs).toFixed(0)} ms (${xs.map((x) => x.toFixed(0)).join(' ')})`;
  const md = [
    `Per-file facts of a parse worker over ${root}: ${files.length} files, ${(bytes / 1e6).toFixed(1)} MB; ${rounds} rounds alternated, ${new Date().toISOString()}, Node ${process.version}, load ${os.loadavg()[0].toFixed(1)} at the end.`,
    `Files whose findings or hash differ between the builds: ${differ}.`,
    '',
    markdownTable(['build', 'secret scan CPU, median (rounds)', 'content hash CPU, median (rounds)'], builds.map((b, k) => [b.name, fmt(times[k].secrets), fmt(times[k].hash)]), ['l', 'r', 'r']),
    '',
  ].join('\n');
  process.stdout.write(md);
  if (out) fs.writeFileSync(out, md);
  return differ === 0 ? 0 : 1;
}

await runMain(import.meta.url, 'facts-ab', main);

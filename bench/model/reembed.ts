// Copies of indexed probe sets re-embedded with a candidate code model, for settings-ab.ts and
// path-compare.ts (bench/model/README.md): every DIR/<name> with a DIR/<name>.done is copied to
// OUT/<name> (its .hci too) with the .done beside it, then opened with the candidate's bytes as the
// runtime's code model (no checkout with a swapped models/code-model.bin needed) and indexed: a model
// change re-embeds every chunk without chunking a file again. Already re-embedded copies (OUT/<name>.done)
// are skipped, so an interrupted run resumes. Owns nothing the product uses.
//
//   node --experimental-transform-types bench/model/reembed.ts --src /work/corpora/probe15 --out DIR --model FILE
//        [--provider pretrained|combined] [--only a,b]
import * as fs from 'node:fs';
import * as path from 'node:path';
import { openWithModel } from '../lib/open-with-model.ts';
import { optList, optString, parseArgs, runMain } from '../lib/util.ts';

export async function main(argv: string[]): Promise<number> {
  const { opts } = parseArgs(argv);
  const src = path.resolve(optString(opts, 'src') ?? '/work/corpora/probe15');
  const out = path.resolve(optString(opts, 'out')!);
  const model = optString(opts, 'model');
  if (!model) throw new Error('reembed: --model FILE is required');
  const provider = optString(opts, 'provider') ?? 'pretrained';
  const only = optList(opts, 'only');
  fs.mkdirSync(out, { recursive: true });
  for (const f of fs.readdirSync(src).filter((x) => x.endsWith('.done')).sort()) {
    const name = f.slice(0, -'.done'.length);
    if (only.length && !only.includes(name)) continue;
    const dest = path.join(out, name);
    if (fs.existsSync(path.join(out, f))) continue;
    fs.rmSync(dest, { recursive: true, force: true });
    fs.cpSync(path.join(src, name), dest, { recursive: true });
    fs.writeFileSync(path.join(dest, '.hci', 'settings.toml'), `[semantic]\nenabled = true\nprovider = "${provider}"\n`);
    const t0 = Date.now();
    const ws = await openWithModel(dest, model);
    try {
      const r = await ws.index();
      process.stderr.write(`${name}: files ${r.files_indexed}, chunks ${r.chunks_written}, vectors ${JSON.stringify(r.vectors).slice(0, 200)} in ${((Date.now() - t0) / 1000).toFixed(1)} s\n`);
    } finally {
      ws.close();
    }
    fs.copyFileSync(path.join(src, f), path.join(out, f));
  }
  return 0;
}

await runMain(import.meta.url, 'reembed', main);

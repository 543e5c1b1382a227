// Writes the service worker (src/sw.ts, types stripped) into the build with the list of every file
// the build emitted — the page, its chunks, the hci Worker, the SQLite and tree-sitter wasm files and
// every grammar — so the app works offline after its first load. The list is read from the output
// folder after it is written (the Worker's own assets come from a nested build), and its hash names
// the cache, so a new build replaces the old cache. Dev (`npm run web`) has no service worker.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { transformWithOxc, type Plugin } from 'vite';

const SW_SOURCE = path.join(import.meta.dirname, '../src/sw.ts');
export const MANIFEST_PLACEHOLDER = '__HCI_PRECACHE__';

function filesUnder(dir: string, base = dir): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? filesUnder(p, base) : [path.relative(base, p).split(path.sep).join('/')];
  });
}

export function serviceWorkerPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'hci-explorer-service-worker',
    apply: 'build',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir);
    },
    async closeBundle() {
      const files = filesUnder(outDir).filter((f) => f !== 'sw.js' && !f.endsWith('.map')).sort();
      const hash = createHash('sha256');
      for (const f of files) hash.update(f).update(fs.readFileSync(path.join(outDir, f)));
      const manifest = { version: hash.digest('hex').slice(0, 12), files: ['./', ...files.map((f) => `./${f}`)] };
      const { code } = await transformWithOxc(fs.readFileSync(SW_SOURCE, 'utf8'), SW_SOURCE, { lang: 'ts' });
      fs.writeFileSync(path.join(outDir, 'sw.js'), code.replace(`"${MANIFEST_PLACEHOLDER}"`, JSON.stringify(manifest)));
    },
  };
}

// The build's second half (after tsc): the files an installed hci needs besides compiled JS.
//  - dist/grammars/<package>/<file>.gz: every grammar-table grammar (core/languages/grammars.ts,
//    read from its compiled copy), gzipped, with its package's LICENSE beside it. The grammar packages
//    are devDependencies, so these copies are the only grammars an installed hci holds; the loaders
//    read them first (runtimes/node/grammars.ts, runtimes/deno/grammars.ts, the Vite plugin).
//  - dist/sample-workspace.zip: the bundled sample solution (test/sample-workspace, without .hci/),
//    for `hci demo` from an installed package. A zip, not a folder: npm never packs `.gitignore`
//    files (nor `.npmrc`), and the sample's ignore rules are part of what it shows.
// Both outputs are byte-for-byte the same on every build of the same inputs.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { zipSync } from 'fflate';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist');
const require = createRequire(path.join(root, 'package.json'));
const { GRAMMARS, packagedGrammarPath, wasmSpecifier } = await import(new URL('../dist/core/languages/grammars.js', import.meta.url).href);

/** The folder holding `pkg`'s package.json, found above one of its files. */
function packageRoot(pkg, fileInside) {
  for (let dir = path.dirname(fileInside); ; dir = path.dirname(dir)) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj) && JSON.parse(fs.readFileSync(pj, 'utf8')).name === pkg) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no package.json of ${pkg} above ${fileInside}`);
  }
}

fs.rmSync(path.join(dist, 'grammars'), { recursive: true, force: true });
let raw = 0;
let packed = 0;
for (const f of Object.values(GRAMMARS)) {
  const src = require.resolve(wasmSpecifier(f));
  const bytes = fs.readFileSync(src);
  const gz = zlib.gzipSync(bytes, { level: 9 });
  const out = path.join(dist, packagedGrammarPath(f));
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, gz);
  raw += bytes.length;
  packed += gz.length;
  const pkgDir = packageRoot(f.package, src);
  const licence = fs.readdirSync(pkgDir).find((n) => /^licen[cs]e/i.test(n));
  if (!licence) throw new Error(`${f.package} has no LICENSE file to ship with its grammar`);
  fs.copyFileSync(path.join(pkgDir, licence), path.join(dist, 'grammars', f.package, 'LICENSE'));
}

const sample = path.join(root, 'test/sample-workspace');
const files = {};
const walk = (dir) => {
  for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== '.hci') walk(p);
    } else if (e.isFile()) files[path.relative(sample, p).split(path.sep).join('/')] = [fs.readFileSync(p), { mtime: new Date(2000, 0, 1) }];
  }
};
walk(sample);
fs.writeFileSync(path.join(dist, 'sample-workspace.zip'), zipSync(files, { level: 9 }));

console.log(`build-assets: ${Object.keys(GRAMMARS).length} grammars (${(raw / 1e6).toFixed(1)} MB → ${(packed / 1e6).toFixed(2)} MB gzipped), sample workspace (${Object.keys(files).length} files)`);

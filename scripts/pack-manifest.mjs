// The package.json that ships: the repository's, without the scripts that only make sense in a clone.
// `prepare` (npm run build) builds dist/ when `npm ci` runs in a clone; in the tarball it would do
// nothing (dist/ ships built) but make npm warn on every install ("install scripts not yet covered by
// allowScripts: … (prepare: npm run build)"). `npm pack` / `npm publish` run `prepack` (strip: the
// shipped manifest written over package.json, the repository's kept beside it) and `postpack`
// (restore). test/helpers/installed-package.ts packs with the same function. Owns that manifest only.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The scripts of a clone that the tarball leaves out. */
const CLONE_ONLY = ['prepare', 'prepack', 'postpack'];

/** The shipped manifest, as text, from the repository's package.json text (key order and layout kept). */
export function shippedManifest(text) {
  const pkg = JSON.parse(text);
  for (const s of CLONE_ONLY) delete pkg.scripts?.[s];
  return `${JSON.stringify(pkg, null, 2)}\n`;
}

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = path.join(REPO, 'package.json');
const KEPT = path.join(REPO, 'package.json.repo');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const step = process.argv[2];
  if (step === 'strip') {
    // A strip after a pack that failed before postpack: the kept manifest is the repository's.
    const text = fs.existsSync(KEPT) ? fs.readFileSync(KEPT, 'utf8') : fs.readFileSync(MANIFEST, 'utf8');
    fs.writeFileSync(KEPT, text);
    fs.writeFileSync(MANIFEST, shippedManifest(text));
  } else if (step === 'restore') {
    if (fs.existsSync(KEPT)) fs.renameSync(KEPT, MANIFEST);
  } else {
    process.stderr.write('usage: node scripts/pack-manifest.mjs strip|restore\n');
    process.exit(2);
  }
}

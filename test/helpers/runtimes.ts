// Locates the other runtimes the suite drives (Deno from the `deno` devDependency). When one is
// missing the suite says so loudly; under CI (CI=true) a missing runtime is a failure.
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');

export function denoBinary(): string | null {
  const candidates = [path.join(repo, 'node_modules/.bin/deno'), path.join(repo, 'node_modules/deno/bin/deno')];
  const found = candidates.find((p) => fs.existsSync(p)) ?? null;
  if (!found) {
    const msg = 'Deno is missing (node_modules/.bin/deno): the Deno suites cannot run. Run `npm ci`.';
    if (process.env.CI === 'true') throw new Error(msg);
    console.warn(`\n!!! ${msg}\n`);
  }
  return found;
}

// Locates the other runtimes the suite drives: Deno (the `deno` devDependency) and Chromium
// (Debian's `chromium` package; `.ci/run` installs it). When one is missing the suite says so
// loudly; under CI (CI=true) a missing runtime is a failure.
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');

function missing(msg: string): null {
  if (process.env.CI === 'true') throw new Error(msg);
  console.warn(`\n!!! ${msg}\n`);
  return null;
}

export function denoBinary(): string | null {
  const candidates = [path.join(repo, 'node_modules/.bin/deno'), path.join(repo, 'node_modules/deno/bin/deno')];
  const found = candidates.find((p) => fs.existsSync(p)) ?? null;
  return found ?? missing('Deno is missing (node_modules/.bin/deno): the Deno suites cannot run. Run `npm ci`.');
}

/**
 * Chromium for the browser suites: $HCI_CHROMIUM, else Debian's package (/usr/bin/chromium), else
 * another chromium/chrome on PATH.
 */
export function chromiumBinary(): string | null {
  const fromEnv = process.env.HCI_CHROMIUM;
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  for (const dir of dirs) {
    for (const name of names) {
      const p = path.join(dir, name);
      if (fs.existsSync(p)) return p;
    }
  }
  return missing('Chromium is missing (/usr/bin/chromium): the browser suites cannot run. Install it: `apt-get install chromium` (.ci/run does), or set HCI_CHROMIUM.');
}

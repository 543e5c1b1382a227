// Locates the other runtimes the suite drives: Deno (the `deno` devDependency) and Chromium
// (Debian's `chromium` package; `.ci/run` installs it). A missing runtime is never a silent pass:
// where runtimes are required (HCI_REQUIRE_RUNTIMES=1, which .ci/run sets, or any CI value other
// than 0/false) it fails the suite; elsewhere the suites that need it are skipped, visibly — their
// describe title says why, and the run ends with a summary line (test/helpers/runtime-summary.ts).
import * as fs from 'node:fs';
import * as path from 'node:path';

const repo = path.resolve(import.meta.dirname, '../..');

/** True when a missing Deno or Chromium must fail the run instead of skipping its suites. */
export function runtimesRequired(env: NodeJS.ProcessEnv = process.env): boolean {
  const on = (v: string | undefined) => v !== undefined && v !== '' && !/^(0|false|no)$/i.test(v);
  return on(env.HCI_REQUIRE_RUNTIMES) || on(env.CI);
}

function missing(msg: string): '' {
  if (runtimesRequired()) throw new Error(`${msg} (required here: HCI_REQUIRE_RUNTIMES or CI is set)`);
  console.warn(`\n!!! ${msg} Its suites are SKIPPED.\n`);
  return '';
}

export const DENO_RAN = 'Deno suites not run again: HCI_DENO=ran (this CI run\'s Node 24 phase ran them).';
export const DENO_MISSING = 'Deno is missing (node_modules/.bin/deno): the Deno suites cannot run. Run `npm ci`.';
export const CHROMIUM_MISSING = 'Chromium is missing (/usr/bin/chromium): the browser suites cannot run. Install it: `apt-get install chromium` (.ci/run does), or set HCI_CHROMIUM.';

/**
 * `HCI_DENO=ran`: the Deno suites already ran in this CI run (`.ci/run`'s Node 24 phase, with Deno
 * required), so the Node 22 phase does not run them again — the Deno CLI they start is the same
 * binary over the same build whichever Node runs vitest. Their suites are skipped without failing,
 * and the run's summary says why. Never set it where the Deno suites did not run.
 */
export function denoAlreadyRan(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.HCI_DENO === 'ran';
}

/** HCI_DENO / HCI_CHROMIUM: a binary to use instead, or `none` to run as if it were missing (`ran`: see denoAlreadyRan). */
export function findDeno(): string | null {
  const fromEnv = process.env.HCI_DENO;
  if (fromEnv === 'none' || denoAlreadyRan()) return null;
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  const candidates = [path.join(repo, 'node_modules/.bin/deno'), path.join(repo, 'node_modules/deno/bin/deno')];
  return candidates.find((p) => fs.existsSync(p)) ?? null;
}

/** Chromium: $HCI_CHROMIUM, else Debian's package (/usr/bin/chromium), else another chromium/chrome on PATH. */
export function findChromium(): string | null {
  const fromEnv = process.env.HCI_CHROMIUM;
  if (fromEnv === 'none') return null;
  if (fromEnv && fs.existsSync(fromEnv)) return fromEnv;
  const names = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
  const dirs = ['/usr/bin', ...(process.env.PATH ?? '').split(path.delimiter).filter(Boolean)];
  for (const dir of dirs) {
    for (const name of names) {
      const p = path.join(dir, name);
      if (fs.existsSync(p)) return p;
    }
  }
  return null;
}

/** Deno's path, or '' when it is missing (then the caller skips: `describe.skipIf(!deno)`). Throws where runtimes are required. */
export function denoBinary(): string {
  if (denoAlreadyRan()) return '';
  return findDeno() ?? missing(DENO_MISSING);
}

/** Chromium's path, or '' when it is missing (see denoBinary). */
export function chromiumBinary(): string {
  return findChromium() ?? missing(CHROMIUM_MISSING);
}

/** A describe title that says why its suite is skipped (empty suffix when every runtime is there). */
export function titled(title: string, runtimes: Record<string, string>): string {
  const gone = Object.entries(runtimes).filter(([, bin]) => !bin).map(([name]) => name);
  if (!gone.length) return title;
  if (gone.length === 1 && gone[0] === 'Deno' && denoAlreadyRan()) return `${title} [SKIPPED: Deno ran in this CI run's Node 24 phase]`;
  return `${title} [SKIPPED: ${gone.join(' and ')} missing]`;
}

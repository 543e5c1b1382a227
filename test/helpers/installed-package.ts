// The package as a user gets it: `npm pack` of this repository (the built dist/, as `npm test` leaves
// it), installed from the tarball into an empty temp project by a PATH that holds only node, npm, npx
// and sh (npm runs scripts and `npx` commands through sh) — no compiler, no Python, no make — with `--foreground-scripts`, so every install script that
// ran would have printed its `> pkg@version <script>` banner. Owns the packing, the minimal PATH, the
// clean environment (nothing of the `npm test` that runs us leaks into the child npm) and finding
// what got installed; the claims about it are test/install.test.ts's.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpDir } from './tmp-workspace.ts';
// @ts-expect-error -- a build script in plain JavaScript, without types
import { shippedManifest } from '../../scripts/pack-manifest.mjs';

export const REPO = path.resolve(import.meta.dirname, '../..');
export const PACKAGE = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { name: string; version: string; dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** The tools a bare machine would lack; none may be reachable through the install PATH. */
export const TOOLCHAIN = ['cc', 'gcc', 'g++', 'c++', 'clang', 'make', 'python', 'python3', 'node-gyp'];

export interface Installed {
  tmp: string;
  /** The temp project the tarball was installed into. */
  app: string;
  /** node_modules/<name> inside it. */
  pkgDir: string;
  /** The bin folder on PATH: node, npm, npx and sh only. */
  binDir: string;
  /** The environment every command of the test runs with. */
  env: Record<string, string>;
  /** Every file in the tarball (package-relative). */
  packed: string[];
  /** What `npm install --foreground-scripts` printed (stdout + stderr). */
  installLog: string;
}

/** An executable named `name` on the current PATH, resolved through symlinks. */
function onPath(name: string): string {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const p = path.join(dir, name);
    if (dir && fs.existsSync(p)) return fs.realpathSync(p);
  }
  throw new Error(`${name} is not on PATH`);
}

/**
 * How this machine reaches the npm registry: its proxy and the certificate authorities it trusts (a
 * machine behind a TLS-inspecting proxy trusts the proxy's CA through NODE_EXTRA_CA_CERTS or npm's
 * cafile; without them every fetch fails with SELF_SIGNED_CERT_IN_CHAIN). A user's shell carries them.
 */
export const NETWORK_ENV = [
  'NODE_EXTRA_CA_CERTS', 'SSL_CERT_FILE', 'SSL_CERT_DIR',
  'HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy', 'NO_PROXY', 'no_proxy',
  'npm_config_cafile', 'npm_config_ca', 'npm_config_proxy', 'npm_config_https_proxy', 'npm_config_noproxy', 'npm_config_strict_ssl',
  'npm_config_userconfig', 'npm_config_cache', 'npm_config_registry',
] as const;

/** Only what a user's shell would carry over; npm's own npm_* variables from `npm test` are left out. */
function cleanEnv(binDir: string): Record<string, string> {
  const env: Record<string, string> = { PATH: binDir, NO_COLOR: '1' };
  for (const k of ['HOME', 'USER', 'LANG', 'TMPDIR', 'CI', ...NETWORK_ENV]) {
    const v = process.env[k];
    if (v !== undefined) env[k] = v;
  }
  return env;
}

export function packAndInstall(): Installed {
  const tmp = tmpDir('hci-install-');
  const binDir = path.join(tmp, 'bin');
  fs.mkdirSync(binDir);
  fs.symlinkSync(process.execPath, path.join(binDir, 'node'));
  fs.symlinkSync(onPath('npm'), path.join(binDir, 'npm'));
  fs.symlinkSync(onPath('npx'), path.join(binDir, 'npx'));
  fs.symlinkSync('/bin/sh', path.join(binDir, 'sh'));
  const env = cleanEnv(binDir);

  // Packs the dist/ that `npm test` just built (--ignore-scripts: no second build in `prepare`), with
  // the manifest `npm pack` ships (its prepack step: scripts/pack-manifest.mjs), from a staging copy
  // of the package's files so that the repository's package.json is never rewritten under other tests.
  const stage = path.join(tmp, 'stage');
  fs.mkdirSync(stage);
  const manifest = fs.readFileSync(path.join(REPO, 'package.json'), 'utf8');
  fs.writeFileSync(path.join(stage, 'package.json'), shippedManifest(manifest));
  for (const entry of [...(JSON.parse(manifest) as { files: string[] }).files.filter((f) => !f.startsWith('!')), 'README.md']) {
    fs.cpSync(path.join(REPO, entry), path.join(stage, entry), { recursive: true });
  }
  const pack = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })) as Array<{ filename: string; files: Array<{ path: string }> }>;
  const tarball = path.join(tmp, pack[0].filename);

  const app = path.join(tmp, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), `${JSON.stringify({ name: 'hci-install-probe', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
  const r = spawnSync('npm', ['install', '--foreground-scripts', '--no-audit', '--no-fund', '--prefer-offline', tarball], { cwd: app, env, encoding: 'utf8', timeout: 180_000 });
  const installLog = `${r.stdout}\n${r.stderr}`;
  if (r.status !== 0) throw new Error(`npm install of the tarball failed (${r.status ?? r.signal}):\n${installLog}`);
  return { tmp, app, pkgDir: path.join(app, 'node_modules', PACKAGE.name), binDir, env, packed: pack[0].files.map((f) => f.path).sort(), installLog };
}

/** Every installed package folder (node_modules/x and node_modules/@scope/x, at any depth). */
export function installedPackages(nodeModules: string): string[] {
  const out: string[] = [];
  const visit = (dir: string) => {
    if (!fs.existsSync(dir)) return;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      if (!e.isDirectory() || e.name.startsWith('.')) continue;
      const p = path.join(dir, e.name);
      if (e.name.startsWith('@')) {
        for (const s of fs.readdirSync(p, { withFileTypes: true })) if (s.isDirectory()) add(path.join(p, s.name));
      } else add(p);
    }
  };
  const add = (p: string) => {
    if (fs.existsSync(path.join(p, 'package.json'))) out.push(p);
    visit(path.join(p, 'node_modules'));
  };
  visit(nodeModules);
  return out.sort();
}

/** Disk use of a folder in KiB, as `du -sk` counts it (blocks, like the `du -sh` of the issue). */
export function diskKiB(dir: string): number {
  return Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split(/\s/)[0]);
}

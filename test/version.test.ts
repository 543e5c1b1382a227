// The one version: core/version.ts says package.json's version (tools/build-version.mjs writes it;
// `--check` fails while they differ), and that is what `hci --version` and the MCP serverInfo report
// (the CLI in test/cli-start.test.ts, the MCP servers in test/mcp-stdio.test.ts and test/deno-mcp.test.ts,
// the installed package in test/install.test.ts).
// @lane cli
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HCI_VERSION } from '../core/version.ts';
import { HCI_VERSION as exported } from '../core/index.ts';

const REPO = path.resolve(import.meta.dirname, '..');

describe('the package version', () => {
  it('core/version.ts says package.json\'s version, and the generator agrees it is current', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8')) as { version: string };
    expect(HCI_VERSION).toBe(pkg.version);
    expect(exported).toBe(pkg.version);
    const check = spawnSync(process.execPath, [path.join(REPO, 'tools/build-version.mjs'), '--check'], { encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
  });

  it('the generator renders exactly the committed module', async () => {
    const { renderVersionModule } = (await import(path.join(REPO, 'tools/build-version.mjs'))) as { renderVersionModule(v: string): string };
    expect(fs.readFileSync(path.join(REPO, 'core/version.ts'), 'utf8')).toBe(renderVersionModule(HCI_VERSION));
    expect(renderVersionModule('9.8.7-beta.1')).toContain("export const HCI_VERSION = '9.8.7-beta.1';");
  });
});

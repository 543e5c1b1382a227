#!/usr/bin/env node
// Entry point of the `hci` command: runs the compiled CLI (built by `npm run build`, run on `npm ci`).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/runtimes/node/cli.js', import.meta.url);
if (!existsSync(fileURLToPath(cli))) {
  process.stderr.write('hci: the CLI is not built yet.\nhint: run `npm install` (or `npm run build`) in the hci folder first\n');
  process.exit(5);
}
const { main } = await import(cli.href);
process.exitCode = await main(process.argv.slice(2));

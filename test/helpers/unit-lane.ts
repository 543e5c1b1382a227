// vitest setup file of the unit lane (test/lanes.ts): the lane runs in-process, so a test file in it
// that starts a child process fails at the call, naming it, instead of quietly needing a build, a
// runtime or a second core. Worker threads stay allowed (the indexer's parse pool is in-process).
import { createRequire, syncBuiltinESMExports } from 'node:module';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;
for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork']) {
  childProcess[name] = () => {
    throw new Error(`unit lane: child_process.${name} was called; a test file that starts processes declares another lane (test/lanes.ts)`);
  };
}
syncBuiltinESMExports();

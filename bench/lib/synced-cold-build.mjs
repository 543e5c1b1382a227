// Preload (`node --import`) for an A/B of the unsynced cold build (core/index/cold-build.ts) on one
// dist: hides the kernel's boot id from the process (reading /proc/sys/kernel/random/boot_id fails),
// so the Node storage names no boot and every pass is synced, as before that change. E.g.
//   node dist/bench/index-threads.js --root DIR --build unsynced=dist --build synced=dist \
//     --build-node-arg synced=--import=./bench/lib/synced-cold-build.mjs --runs 3
// node:fs is patched through syncBuiltinESMExports before the product loads.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

const BOOT_ID = '/proc/sys/kernel/random/boot_id';
const { readFileSync } = fs;
fs.readFileSync = function (p, ...rest) {
  if (String(p) === BOOT_ID) throw Object.assign(new Error(`ENOENT: hidden by synced-cold-build.mjs, open '${BOOT_ID}'`), { code: 'ENOENT' });
  return readFileSync.call(this, p, ...rest);
};
syncBuiltinESMExports();

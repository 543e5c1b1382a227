// Child process for the unsynced cold build (core/index/cold-build.ts): runs an indexing pass of
// <root> through the compiled product (dist/) with small batches, counting what reaches the file
// system around the index — fsync/fdatasync calls on the index file or its rollback journal, and
// journals created — and either finishes or SIGKILLs itself once <files> files are done:
//   node test/helpers/cold-build-child.mjs <root> run [full]     prints one JSON line: counts + summary
//   node test/helpers/cold-build-child.mjs <root> kill <files>   dies mid-pass (prints the counts so far first)
// node:fs is patched through syncBuiltinESMExports, so the VFS's own `import * as fs` sees it.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';

const [root, mode, arg] = process.argv.slice(2);
if (!root || !['run', 'kill'].includes(mode)) {
  process.stderr.write('usage: cold-build-child.mjs <root> run [full] | kill <files>\n');
  process.exit(2);
}
const dbPath = path.resolve(root, '.hci', 'index.sqlite');
const watched = new Set([dbPath, `${dbPath}-journal`]);
const fds = new Set();
const counts = { journals: 0, syncs: 0 };

const { openSync, closeSync, fsyncSync, fdatasyncSync } = fs;
fs.openSync = function (p, ...rest) {
  const fd = openSync.call(this, p, ...rest);
  const abs = path.resolve(String(p));
  if (watched.has(abs)) fds.add(fd);
  if (abs === `${dbPath}-journal`) counts.journals++;
  return fd;
};
fs.closeSync = function (fd) {
  fds.delete(fd);
  return closeSync.call(this, fd);
};
fs.fsyncSync = function (fd) {
  if (fds.has(fd)) counts.syncs++;
  return fsyncSync.call(this, fd);
};
fs.fdatasyncSync = function (fd) {
  if (fds.has(fd)) counts.syncs++;
  return fdatasyncSync.call(this, fd);
};
syncBuiltinESMExports();

const { openWorkspace } = await import('../../dist/runtimes/node/index.js');
const ws = await openWorkspace(root);
const killAt = mode === 'kill' ? Number(arg) : Infinity;
const summary = await ws.index({
  full: mode === 'run' && arg === 'full',
  batchMs: 5,
  onProgress: (p) => {
    if (p.phase === 'index' && p.filesDone >= killAt) {
      process.stdout.write(`${JSON.stringify({ killedAt: p.filesDone, ...counts })}\n`);
      process.kill(process.pid, 'SIGKILL');
    }
  },
});
ws.close();
process.stdout.write(`${JSON.stringify({ ...counts, batches: summary.batches, files_indexed: summary.files_indexed })}\n`);
if (mode === 'kill') process.exit(3); // the pass ended before the kill point

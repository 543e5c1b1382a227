// Child process for crash injection: runs a `--full` indexing pass of <root> through the compiled
// product (dist/) and SIGKILLs itself at an exact point of the k-th commit, chosen by the parent:
//   node test/helpers/crash-child.mjs <root> journal-delete <k>      kill instead of deleting the
//        rollback journal that commits transaction k (the database file already holds all of k's
//        pages: the journal is hot and the next opener must roll k back)
//   node test/helpers/crash-child.mjs <root> db-write <k> <j>        kill at the j-th write to the
//        database file during commit k (the database is torn, the journal is hot)
// node:fs is patched through syncBuiltinESMExports, so the VFS's own `import * as fs` sees it.
// Prints "commit <n>" to stdout as each earlier commit completes, for the parent's log.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';

const [root, point, kArg, jArg] = process.argv.slice(2);
const k = Number(kArg);
const j = Number(jArg ?? 1);
if (!root || !['journal-delete', 'db-write'].includes(point) || !(k >= 1)) {
  process.stderr.write('usage: crash-child.mjs <root> journal-delete|db-write <k> [j]\n');
  process.exit(2);
}
const dbPath = path.resolve(root, '.hci', 'index.sqlite');
const dbFds = new Set();
let commitsDone = 0;
let dbWritesInCommit = 0;

const die = (why) => {
  process.stderr.write(`crash-child: SIGKILL at ${why}\n`);
  process.kill(process.pid, 'SIGKILL');
};

const { openSync, closeSync, writeSync, unlinkSync } = fs;
fs.openSync = function (p, ...rest) {
  const fd = openSync.call(this, p, ...rest);
  if (path.resolve(String(p)) === dbPath) dbFds.add(fd);
  return fd;
};
fs.closeSync = function (fd) {
  dbFds.delete(fd);
  return closeSync.call(this, fd);
};
fs.writeSync = function (fd, ...rest) {
  if (dbFds.has(fd) && commitsDone === k - 1 && point === 'db-write' && ++dbWritesInCommit === j) {
    die(`database write ${j} of commit ${k}`);
  }
  return writeSync.call(this, fd, ...rest);
};
fs.unlinkSync = function (p) {
  if (path.resolve(String(p)) === `${dbPath}-journal`) {
    if (commitsDone === k - 1 && point === 'journal-delete') die(`journal delete of commit ${k}`);
    const out = unlinkSync.call(this, p);
    commitsDone++;
    dbWritesInCommit = 0;
    process.stdout.write(`commit ${commitsDone}\n`);
    return out;
  }
  return unlinkSync.call(this, p);
};
syncBuiltinESMExports();

const { openWorkspace } = await import('../../dist/runtimes/node/index.js');
const ws = await openWorkspace(root);
await ws.index({ full: true });
ws.close();
process.stderr.write(`crash-child: the run finished after ${commitsDone} commits without reaching the crash point\n`);
process.exit(3);

// Preload (`node --import`) for interrupting a real `hci` process at an exact point: once the
// write transaction numbered HCI_SIGNAL_AT_COMMIT has committed (its rollback journal beside
// <HCI_SIGNAL_ROOT>/.hci/index.sqlite is deleted), the process sends itself HCI_SIGNAL (SIGKILL:
// dies at once; SIGINT: what Ctrl-C sends, the CLI cancels cleanly). Prints "commit <n>" to stderr
// as commits complete. node:fs is patched through syncBuiltinESMExports before the CLI loads, so
// the VFS's own `import * as fs` sees it.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import * as path from 'node:path';

const at = Number(process.env.HCI_SIGNAL_AT_COMMIT);
const signal = process.env.HCI_SIGNAL ?? 'SIGKILL';
const journal = path.resolve(process.env.HCI_SIGNAL_ROOT ?? '.', '.hci', 'index.sqlite-journal');
let commits = 0;
const { unlinkSync } = fs;
fs.unlinkSync = function (p) {
  const out = unlinkSync.call(this, p);
  if (path.resolve(String(p)) === journal) {
    commits++;
    process.stderr.write(`commit ${commits}\n`);
    if (commits === at) process.kill(process.pid, signal);
  }
  return out;
};
syncBuiltinESMExports();

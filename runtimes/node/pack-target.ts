// Where `hci pack` writes under Node (core/index/pack.ts PackTarget): the packed file and its scratch
// copy opened through the hci-node VFS, read back for the digest, the manifest written beside it.
// Owns only these file operations.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PackTarget } from '../../core/index/pack.ts';
import type { Database } from '../../core/sqlite/engine.ts';
import { installNodeVfs } from './node-vfs.ts';

export function nodePackTarget(out: string): PackTarget {
  const file = path.resolve(out);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return {
    path: file,
    tempPath: `${file}.${process.pid}.tmp`,
    open: (p, engine) => new engine.sqlite3.oo1.DB({ filename: p, flags: 'c', vfs: installNodeVfs(engine.sqlite3) }) as Database,
    remove: (p) => fs.rmSync(p, { force: true }),
    readBytes: (p) => fs.readFileSync(p),
    writeText: (p, text) => fs.writeFileSync(p, text),
  };
}

// Where `hci pack` writes under Deno (core/index/pack.ts PackTarget): the packed file and its scratch
// copy opened through the hci-deno VFS, read back for the digest, the manifest written beside it.
// Needs --allow-write for the output folder. Owns only these file operations.
import * as path from 'node:path'; // pure path arithmetic only
import type { PackTarget } from '../../core/index/pack.ts';
import type { Database } from '../../core/sqlite/engine.ts';
import { deno, errorName } from './deno-api.ts';
import { absolutePath } from './deno-storage.ts';
import { installDenoVfs } from './deno-vfs.ts';

export function denoPackTarget(out: string): PackTarget {
  const file = absolutePath(out);
  deno().mkdirSync(path.dirname(file), { recursive: true });
  return {
    path: file,
    tempPath: `${file}.${deno().pid}.tmp`,
    open: (p, engine) => new engine.sqlite3.oo1.DB({ filename: p, flags: 'c', vfs: installDenoVfs(engine.sqlite3) }) as Database,
    remove: (p) => {
      try {
        deno().removeSync(p);
      } catch (e) {
        if (errorName(e) !== 'NotFound') throw e;
      }
    },
    readBytes: (p) => deno().readFileSync(p),
    writeText: (p, text) => deno().writeTextFileSync(p, text),
  };
}

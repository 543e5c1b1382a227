// The exact-name lookup's order (core/search/declarations.ts exactlyNamed): where an index has no
// current record of declarations (a packed index, a remote one, one made before the record), the
// files that may declare a name are those of the chunks named exactly after it. Forty YAML files
// with a key `tarnish` (a key chunk's symbol is the key) and one C# method `Tarnish`: in chunk order
// the keys filled the lookup's files and the method's file was never read, so the method's own
// name did not find its declaration (the lookup by rank over the symbol column may still find it:
// a packed copy without its keyword index has the exact-name lookup alone). Declaring chunks first
// (a live index: by chunk kind; a packed one: key languages last). Real files in a temp folder,
// indexed and packed, the real WASM SQLite.
// @lane unit
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { loadEngine, type SqliteEngine } from '../core/sqlite/engine.ts';
import { SearchSession } from '../core/search/session.ts';
import { findDeclarations } from '../core/search/declarations.ts';
import { fflateCodec } from '../core/index/fflate-codec.ts';
import { nodePackTarget } from '../runtimes/node/pack-target.ts';
import { indexAndPack, memberMethods, withoutKeywordIndex } from './helpers/published-index.ts';
import { createTmpWorkspace, tmpDir, type TmpWorkspace, type WorkspaceFiles } from './helpers/tmp-workspace.ts';

const KEYS = 40;

describe('declarations: the exact-name lookup without a record', () => {
  let engine: SqliteEngine;
  let ws: TmpWorkspace;
  let out: string;
  let packed: string;

  beforeAll(async () => {
    engine = await loadEngine();
    // (A method long enough to be a chunk of its own, named after it.)
    const long = Array.from({ length: 40 }, (_, k) => `        x -= ${k};\n`).join('');
    const files: WorkspaceFiles = {
      'src/Polish.cs': `namespace Demo;\n\npublic class Polisher\n{\n${memberMethods('Buff', 10)}    public int Tarnish(int x)\n    {\n${long}        return x;\n    }\n}\n`,
    };
    // (A key whose block of text is long enough to be a chunk of its own, named `tarnish`.)
    const text = Array.from({ length: 40 }, (_, j) => `  line ${j} of the tarnish notes\n`).join('');
    for (let i = 0; i < KEYS; i++) files[`config/site${String(i).padStart(2, '0')}.yaml`] = `title: Site ${i}\ntarnish: |\n${text}footer: none\n`;
    ws = await createTmpWorkspace(files, 'hci-decl-order-');
    out = tmpDir('hci-decl-order-out-');
    packed = path.join(out, 'index.sqlite');
    await indexAndPack(ws.root, packed, { pageSize: 4096 });
  }, 120_000);

  afterAll(async () => {
    await ws?.cleanup();
    if (out) fs.rmSync(out, { recursive: true, force: true });
  });

  /** findDeclarations of `Tarnish` with no candidates over `file` (a session that reads ahead: no record used), and how many chunks are so named. */
  const lookup = (file: string) => {
    const db = nodePackTarget(file).open(file, engine);
    try {
      const session = new SearchSession(db, fflateCodec, () => {});
      const decls = session.withPathFilter(null, () => findDeclarations(session, ['Tarnish'], []));
      const files = new Map(db.selectArrays('SELECT id, path FROM files') as Array<[number, string]>);
      const named = Number(db.selectValue("SELECT count(*) FROM chunks WHERE lower(symbol_name) = 'tarnish'"));
      const yamlFirst = Number(db.selectValue("SELECT min(id) FROM files WHERE path LIKE 'config/%'")) < Number(db.selectValue("SELECT id FROM files WHERE path = 'src/Polish.cs'"));
      return { decls: decls.map((d) => ({ path: files.get(d.fileId), name: d.name, kind: d.kind })), named, yamlFirst };
    } finally {
      db.close();
    }
  };

  /** A copy of the packed index with its keyword index emptied: the lookup by rank over the symbol column finds nothing, the exact-name lookup is all. */
  const withoutFts = () => withoutKeywordIndex(engine, packed, path.join(out, 'packed-nofts.sqlite'));

  it('reads the declaring chunk\'s file before forty key chunks of the name', () => {
    for (const file of [path.join(ws.root, '.hci', 'index.sqlite'), packed, withoutFts()]) {
      const r = lookup(file);
      // (The fixture holds what it should: the keys are chunks so named, listed before the method's file.)
      expect(r.named).toBe(KEYS + 1);
      expect(r.yamlFirst).toBe(true);
      expect(r.decls).toEqual([{ path: 'src/Polish.cs', name: 'Tarnish', kind: 'method' }]);
    }
  });
});

// Keeping the literal index (files_tri: each file's stored text as trigrams, and files_grams: its
// gram filter, gram-bloom.ts; schema.ts) in step with
// the workspace setting `literal_index`. Owns the meta key `literal_index` — `off`, `on`, or
// `filling:<last file id>` while a fill is under way — and filling or emptying the tables from the
// stored blobs in batches (readers wait at most one batch, as for indexing). The indexer syncs before
// it writes, then writes both tables' rows with every file (writer.ts). Searches read the state to
// know whether the index can prefilter (core/search/literal/).
import type { Database } from '../sqlite/engine.ts';
import type { IndexStore } from './store.ts';
import { readStoredFile } from './file-data.ts';
import { GRAMS_INSERT, literalText, TRI_INSERT } from './writer.ts';
import { readMeta, setMeta } from './meta.ts';
import { gramBloom } from './gram-bloom.ts';

export type LiteralIndexState = 'on' | 'off' | 'filling';

/** Whether files_tri and files_grams hold every file's text now (only then may a search narrow by them). */
export function literalIndexReady(db: Database): boolean {
  return String(db.selectValue("SELECT value FROM meta WHERE key = 'literal_index'") ?? 'off') === 'on';
}

function parseState(value: string | undefined): { state: LiteralIndexState; after: number } {
  if (value === 'on') return { state: 'on', after: 0 };
  const m = /^filling:(\d+)$/.exec(value ?? '');
  return m ? { state: 'filling', after: Number(m[1]) } : { state: 'off', after: 0 };
}

/**
 * Brings files_tri to the setting: fills it from the stored text (resuming a fill a crash or a cancel
 * interrupted) or empties it. `checkCancel` throws to stop between batches; a stopped fill resumes on
 * the next pass. Returns the number of files written.
 */
export async function syncLiteralIndex(store: IndexStore, want: boolean, checkCancel: () => void, batchMs = 100): Promise<number> {
  const current = parseState(await store.read((db) => readMeta(db).literal_index));
  if (!want) {
    if (current.state === 'off') return 0;
    await store.write((db) => {
      db.exec("INSERT INTO files_tri(files_tri) VALUES ('delete-all'); DELETE FROM files_grams");
      setMeta(db, { literal_index: 'off' });
    });
    return 0;
  }
  if (current.state === 'on') return 0;
  let after = current.after;
  let written = 0;
  for (;;) {
    checkCancel();
    const done = await store.write((db) => {
      const t0 = Date.now();
      const st = db.prepare(TRI_INSERT);
      const grams = db.prepare(GRAMS_INSERT);
      try {
        for (;;) {
          const id = db.selectValue('SELECT min(id) FROM files WHERE id > ?', [after]) as number | null | undefined;
          if (id === null || id === undefined) {
            setMeta(db, { literal_index: 'on' });
            return true;
          }
          const stored = readStoredFile(db, Number(id), store.codec);
          if (stored) {
            const text = literalText(stored);
            st.bind([Number(id), text]).stepReset();
            grams.bind([Number(id), gramBloom(text)]).stepReset();
            written++;
          }
          after = Number(id);
          if (Date.now() - t0 >= batchMs) {
            setMeta(db, { literal_index: `filling:${after}` });
            return false;
          }
        }
      } finally {
        st.finalize();
        grams.finalize();
      }
    });
    if (done) return written;
  }
}

// "Why this result": the explanation of the hit the file was opened from (core explain): its rank and
// score, BM25 with the column weights, every boost and penalty, which query terms matched in which
// fields, what did not match, and the paired files. Owns this panel.
import { explanation } from './controller.ts';
import { openFile } from './controller.ts';

export function Explain({ onClose }: { onClose: () => void }) {
  const r = explanation.value;
  if (!r) return null;
  const e = r.explanation;
  return (
    <aside class="explain" aria-label="Why this result">
      <header>
        <h2>Why this result</h2>
        <button class="icon" aria-label="Close" onClick={onClose}>×</button>
      </header>
      {r.status !== 'ok' || !e ? (
        <p class="error">{r.error?.message} {r.hint}</p>
      ) : (
        <>
          <dl>
            <dt>rank</dt>
            <dd>{e.rank ?? '–'}</dd>
            <dt>score</dt>
            <dd>{e.score?.toFixed(3) ?? '–'}</dd>
            <dt>match</dt>
            <dd>{e.match ?? '–'}</dd>
            <dt>chunk</dt>
            <dd>
              {e.chunk_kind} L{e.start_line}–{e.end_line} {e.symbol && <code>{e.symbol.member_key ?? e.symbol.name}</code>}
            </dd>
          </dl>
          {e.fts && (
            <p>
              BM25 {e.fts.bm25.toFixed(3)} → fts score {e.fts.score.toFixed(3)}; column weights{' '}
              {Object.entries(e.fts.column_weights).map(([k, v]) => `${k} ${v}`).join(', ')}
            </p>
          )}
          {!!e.factors?.length && (
            <>
              <h3>Boosts and penalties</h3>
              <ul class="factors">
                {e.factors.map((f) => (
                  <li>
                    {f.name.replace(/_/g, ' ')} <b>×{f.factor}</b>
                  </li>
                ))}
              </ul>
            </>
          )}
          {!!e.matched_terms?.length && (
            <>
              <h3>Matched terms</h3>
              <ul class="terms">
                {e.matched_terms.map((t) => (
                  <li>
                    <mark>{t.term}</mark> in {t.fields.join(', ')}
                  </li>
                ))}
              </ul>
            </>
          )}
          {!!e.unmatched_terms?.length && <p>Not matched: {e.unmatched_terms.join(', ')}</p>}
          {!!e.dropped_stop_words?.length && <p class="muted">Stop words dropped: {e.dropped_stop_words.join(', ')}</p>}
          {!!e.paired_files?.length && (
            <p>
              Paired:{' '}
              {e.paired_files.map((p) => (
                <button class="pair" onClick={() => void openFile(p.path)}>
                  {p.path} ({p.relation.replace('_', ' ')})
                </button>
              ))}
            </p>
          )}
        </>
      )}
    </aside>
  );
}

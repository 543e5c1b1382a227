// Indexing progress: phase, files done of total, files per second, chunks, bytes read, the grammar
// downloads of this run, and Cancel; when it ends, the summary and the files skipped by reason
// (secrets among them). Owns this panel; the run is actions.ts's.
import { useRef, useState } from 'preact/hooks';
import { current, grammarDownloads, hasQuery, indexRun, status } from '../app/state.ts';
import { bytes, count } from '../app/format.ts';
import { Skipped } from '../search/StatusLine.tsx';
import { cancelIndex } from './actions.ts';

export function IndexPanel() {
  const [expanded, setExpanded] = useState(false);
  const searchedAfter = useRef<unknown>(null);
  const r = indexRun.value;
  const running = !!r && !['done', 'cancelled', 'failed'].includes(r.phase);
  // A finished run of another workspace is not this one's news.
  if (!r || (!running && r.workspace !== current.value?.name)) return null;
  const now = r.endedAt ?? performance.now();
  const secs = (now - (r.indexStartedAt ?? r.startedAt)) / 1000;
  const rate = r.indexStartedAt && secs > 0 ? Math.round(r.filesDone / secs) : 0;
  const pct = r.filesTotal ? Math.round((100 * r.filesDone) / r.filesTotal) : 0;
  const st = status.value;
  const skippedNow = r.summary?.skipped ?? st?.skipped ?? {};
  if (!running && hasQuery.value) searchedAfter.current = r;
  if (!running && !expanded && (hasQuery.value || searchedAfter.current === r)) {
    // Once searching, a finished run shrinks to one line, and stays so when the box is cleared: the
    // panel unfolding there and folding on the next keystroke moved the whole page twice.
    const skips = Object.entries(skippedNow).map(([k, n]) => `${k.replace(/_/g, ' ')} ${n}`).join(', ') || 'none';
    return (
      <section class={`index-panel compact phase-${r.phase}`} aria-label="Indexing">
        <span class="phase badge">{r.phase}</span>
        <span class="summary">
          {r.summary
            ? `${r.workspace}: ${count(r.summary.files_indexed, 'file')} indexed, ${r.summary.files_unchanged} unchanged → ${count(r.summary.chunks_written, 'chunk')} in ${(r.summary.took_ms / 1000).toFixed(2)} s · ${rate} files/s · skipped: ${skips}`
            : `${r.workspace}: ${r.error?.text ?? r.phase}`}
        </span>
        <button class="link" onClick={() => setExpanded(true)}>details</button>
        <button class="icon" aria-label="Dismiss" onClick={() => (indexRun.value = null)}>×</button>
      </section>
    );
  }
  return (
    <section class={`index-panel phase-${r.phase}`} aria-label="Indexing">
      <header>
        <strong>
          {running ? 'Indexing' : r.phase === 'done' ? 'Indexed' : r.phase === 'cancelled' ? 'Cancelled' : 'Indexing failed'} {r.workspace}
        </strong>
        <span class="phase badge">{r.phase}</span>
        {running ? (
          <button class="danger" disabled={r.cancelling} onClick={() => void cancelIndex()}>
            {r.cancelling ? 'Cancelling…' : 'Cancel'}
          </button>
        ) : (
          <>
            {expanded && <button class="link" onClick={() => setExpanded(false)}>less</button>}
            <button class="icon" aria-label="Dismiss" onClick={() => (indexRun.value = null)}>×</button>
          </>
        )}
      </header>
      <div class="bar" role="progressbar" aria-label={`Files indexed of ${r.workspace}`} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100}>
        <div style={{ width: `${r.phase === 'done' ? 100 : pct}%` }} />
      </div>
      <div class="figures">
        <span>{r.filesDone.toLocaleString('en')} / {r.filesTotal ? r.filesTotal.toLocaleString('en') : '?'} files</span>
        <span>{rate} files/s</span>
        <span>{count(r.chunks, 'chunk')}</span>
        <span>{bytes(r.bytes)} read</span>
        <span>{((now - r.startedAt) / 1000).toFixed(1)} s</span>
      </div>
      {grammarDownloads.value.length > 0 && (
        <div class="grammars">
          grammars loaded:{' '}
          {grammarDownloads.value.map((g) => (
            <span class="badge" title={`${g.ms} ms`}>
              {g.what.replace(/^the | grammar$/g, '')} {bytes(g.bytes)}
            </span>
          ))}
        </div>
      )}
      {r.summary && (
        <p>
          {count(r.summary.files_indexed, 'file')} indexed, {r.summary.files_unchanged} unchanged, {r.summary.files_removed} removed →{' '}
          {count(r.summary.chunks_written, 'chunk')} in {(r.summary.took_ms / 1000).toFixed(2)} s
          {r.summary.parse_fallback ? ` (${r.summary.parse_fallback} parsed as line windows)` : ''}
        </p>
      )}
      {r.error && (
        <p class={r.phase === 'cancelled' ? 'muted' : 'error'}>
          {r.error.text}
          {r.error.hint && <span class="hint"> — {r.error.hint}</span>}
        </p>
      )}
      {!running && st && (
        <div class="skipped-box">
          <h2>Skipped by reason</h2>
          <Skipped skipped={skippedNow} samples={st.skipped_samples} />
        </div>
      )}
    </section>
  );
}

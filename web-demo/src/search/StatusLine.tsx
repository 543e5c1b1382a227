// The line that is always there under the search box: the answer's status, match and timing, how
// current the index is, what was skipped, and the hint — so an empty list is never bare. Without a
// query it shows the workspace's status report. Owns this summary.
import { useState } from 'preact/hooks';
import type { IndexFreshness } from '../../../core/contract/index.ts';
import { hasQuery, results, status } from '../app/state.ts';
import { age, count } from '../app/format.ts';

function Freshness({ index }: { index: IndexFreshness | null | undefined }) {
  if (!index) return <span class="muted">no index</span>;
  return (
    <span class="freshness" title={index.location}>
      {count(index.files, 'file')} · {count(index.chunks, 'chunk')} · generation {index.generation} · indexed {age(index.indexed_at)}
      {index.build_state !== 'complete' && <span class="badge warn">{index.build_state}</span>}
      {index.indexer_running && <span class="badge warn">indexing</span>}
    </span>
  );
}

export function Skipped({ skipped, samples }: { skipped: Record<string, number>; samples?: Array<{ path: string; reason: string }> }) {
  const reasons = Object.entries(skipped).sort((a, b) => b[1] - a[1]);
  if (!reasons.length) return <span class="muted">nothing skipped</span>;
  return (
    <ul class="skipped">
      {reasons.map(([reason, n]) => (
        <li key={reason}>
          <span class={`badge skip-${reason}`}>{reason.replace(/_/g, ' ')}</span> {n}
          {samples && (
            <span class="muted samples">
              {' '}
              {samples.filter((s) => s.reason === reason).slice(0, 3).map((s) => s.path).join(', ')}
            </span>
          )}
        </li>
      ))}
    </ul>
  );
}

export function StatusLine() {
  const [open, setOpen] = useState(false);
  const res = results.value;
  const st = status.value;
  const skipped = res?.skipped ?? st?.skipped ?? {};
  const nSkipped = Object.values(skipped).reduce((a, b) => a + b, 0);
  const files = res ? new Set(res.hits.map((h) => h.path)).size : 0;
  const state = res && hasQuery.value ? res.status : st?.status ?? 'no_index';
  const hint = res && hasQuery.value ? res.hint : st?.hint ?? (st?.status === 'ok' ? 'type to search; Ctrl-P finds a file by name' : undefined);
  return (
    <div class="statusline" data-status={state}>
      <div class="status-row">
        <span class={`badge status-${state}`}>{state}</span>
        {res && hasQuery.value ? (
          <span>
            {res.next_cursor ? `${res.hits.length}+ hits` : count(res.hits.length, 'hit')} in {count(files, 'file')} · match {res.match} · {res.took_ms} ms
          </span>
        ) : null}
        <Freshness index={res?.index ?? st?.index} />
        <button class="link" onClick={() => setOpen(!open)} aria-expanded={open}>
          skipped {nSkipped}
        </button>
      </div>
      {hint && <div class="hint">{hint}</div>}
      {(res?.error ?? st?.error) && <div class="error">{(res?.error ?? st?.error)!.code}: {(res?.error ?? st?.error)!.message}</div>}
      {open && <Skipped skipped={skipped} samples={st?.skipped_samples} />}
    </div>
  );
}

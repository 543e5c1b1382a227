// Filter chips: one per extension the query's matches fall in, with their file counts (core facets,
// which count every extension whatever is chosen; a label says what is counted — files holding every
// term, over the whole index — so the counts are not read as the hits on the page), a folder prefix, and hiding test or generated
// files. Owns these controls; the request they make is controller.ts's.
import { useState } from 'preact/hooks';
import { facets, filters, hasQuery } from '../app/state.ts';
import { setFilters, toggleExt, toggleHide } from './controller.ts';

const SHOWN = 6;

export function Filters() {
  const [all, setAll] = useState(false);
  const f = filters.value;
  // What is typed in the folder box until Enter or leaving it (a redraw meanwhile must not undo it);
  // null follows the filter. No effect copies the filter into the draft: run after the next paint, such
  // a copy landed after the next keys on a busy machine and put back the folder just cleared.
  const [draft, setDraft] = useState<string | null>(null);
  const commitUnder = (typed: string) => {
    setDraft(null);
    if (typed.trim() !== filters.value.under) setFilters({ under: typed.trim() });
  };
  const fc = hasQuery.value ? facets.value : null;
  const shown = new Set<string>();
  const chips = (fc?.exts ?? []).map((e) => {
    shown.add(e.ext);
    return { ext: e.ext, lang: e.lang, files: e.files as number | null };
  });
  for (const ext of f.exts) if (!shown.has(ext.startsWith('.') ? ext : `.${ext}`)) chips.push({ ext, lang: '', files: null });
  // The most common extensions, and any chosen one; the rest behind "+N".
  const visible = all ? chips : chips.filter((c, i) => i < SHOWN || f.exts.includes(c.ext));
  // What the counts are: files whose chunks hold every term (or, when none does, some), over the whole
  // index — not the hits on this page, which also rank in definitions and near matches.
  const counted = fc && fc.status === 'ok' ? `${fc.files} ${fc.files === 1 ? 'file holds' : 'files hold'} ${fc.match === 'all' ? 'every term' : 'some terms'}:` : null;
  return (
    <div class="filters" role="group" aria-label="Filters">
      {counted && <span class="facet-label" title="Counted over the whole index by extension, not over the hits on this page">{counted}</span>}
      {visible.map((c) => {
        const on = f.exts.includes(c.ext);
        return (
          <button key={c.ext} class={`chip${on ? ' on' : ''}`} aria-pressed={on} title={c.lang ? `${c.files} ${c.lang} files (${c.ext}) hold ${fc?.match === 'all' ? 'every term' : 'some terms'}: show only these` : 'chosen'} onClick={() => toggleExt([c.ext])}>
            {c.ext || '(none)'}
            {c.lang && <span class="chip-lang">{c.lang}</span>}
            {c.files !== null && <span class="chip-count">{c.files}</span>}
          </button>
        );
      })}
      {chips.length > visible.length && (
        <button class="link" onClick={() => setAll(true)}>
          +{chips.length - visible.length} more
        </button>
      )}
      <label class="under">
        under
        <input
          value={draft ?? f.under}
          placeholder="src/Web/"
          spellcheck={false}
          onInput={(e) => setDraft((e.target as HTMLInputElement).value)}
          // The box's own value, not the draft of the last render: Enter may come before that render.
          onKeyDown={(e) => {
            if (e.key === 'Enter') commitUnder((e.target as HTMLInputElement).value);
          }}
          onBlur={(e) => commitUnder((e.target as HTMLInputElement).value)}
        />
      </label>
      <button class={`chip${f.hide.includes('test') ? ' on' : ''}`} aria-pressed={f.hide.includes('test')} onClick={() => toggleHide('test')}>
        hide tests
      </button>
      <button class={`chip${f.hide.includes('generated') ? ' on' : ''}`} aria-pressed={f.hide.includes('generated')} onClick={() => toggleHide('generated')}>
        hide generated
      </button>
    </div>
  );
}

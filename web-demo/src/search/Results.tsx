// The hits, grouped by file in rank order: each file with its language and paired files, each hit
// with its line range, symbol, hit_kind badge, score and snippet with the query's terms marked (for
// exact text and regex hits, the lines the Worker matched — match_lines — stand out, and the matches
// in them are marked). The
// selected hit (j/k) is kept in view; a click or Enter opens it in the viewer. Owns this list.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { SearchHit, SearchResponse } from '../../../core/contract/index.ts';
import { current, hasQuery, results, searchOptions, selected, semanticOn, similarTo, status, view, type SearchOptions } from '../app/state.ts';
import { pairLabel, splitPath } from '../app/format.ts';
import { openFile } from '../viewer/controller.ts';
import { markTerms } from './terms.ts';
import type { Example } from './examples.ts';
import { backToSearch, moreLikeThis, setQuery, setSearchOptions } from './controller.ts';

export function openHit(h: SearchHit): Promise<void> {
  return openFile(h.path, { lines: [h.start_line, h.end_line], hitId: h.hit_id });
}

// The list is drawn for the query its answer is for (res.query), not the one being typed: a keystroke
// then redraws nothing until its own answer comes (only whether the box is empty is watched).
// Groups and hits are keyed by their place in the list, not by path and hit_id: the next keystroke's
// answer mostly holds other hits, and patching the rows already there (their text, a few attributes)
// costs the page less than removing them and building new ones — script, style and layout. The rows
// hold no state of their own. Snippets and marks are plain calls, not components (no instance and no
// signal subscription per line).

function marked(text: string, q: string, o: SearchOptions) {
  return markTerms(text, q, o).map((p) => (p.mark ? <mark>{p.text}</mark> : p.text));
}

function snippet(text: string, matchLines: number[] | undefined, q: string, o: SearchOptions) {
  const matched = new Set(matchLines ?? []);
  return (
    <pre class="snippet">
      {text.split('\n').map((line) => {
        const m = /^(\d+): (.*)$/.exec(line);
        const hit = !!m && matched.has(Number(m[1]));
        return (
          <div class={hit ? 'snip-line match' : 'snip-line'} data-line={m?.[1]}>
            <span class="snip-n">{m ? m[1] : ''}</span>
            {marked(m ? m[2] : line, q, o)}
          </div>
        );
      })}
    </pre>
  );
}

export function Results() {
  const list = useRef<HTMLDivElement>(null);
  // The rows of the last answer stay in the page while the box is empty, unpainted but laid out
  // (content-visibility: hidden keeps their style and layout, display: none would drop them): the
  // first letter of the next query then patches them like any keystroke instead of building anew.
  const kept = useRef<SearchResponse | null>(null);
  if (results.value) kept.current = results.value;
  // Shown: a query is typed and its answer is here (until then, or with the box empty, they wait unpainted).
  const shown = hasQuery.value && results.value !== null;
  const res = kept.current;
  const sel = selected.value;
  useEffect(() => {
    list.current?.querySelector('.hit.sel')?.scrollIntoView({ block: 'nearest' });
  }, [sel, res]);
  if (!res) return hasQuery.value ? null : <StartHere />;
  const groups: Array<{ path: string; hits: Array<{ h: SearchHit; i: number }> }> = [];
  const byPath = new Map<string, (typeof groups)[number]>();
  res.hits.forEach((h, i) => {
    let g = byPath.get(h.path);
    if (!g) byPath.set(h.path, (g = { path: h.path, hits: [] })), groups.push(g);
    g.hits.push({ h, i });
  });
  const openPath = view.value?.path;
  const o = searchOptions.value;
  const more = semanticOn.value;
  const like = similarTo.value;
  return (
    <>
      {!hasQuery.value && <StartHere />}
      {like && shown && (
        <div class="similar-head" role="status">
          Chunks like <code>{like.label}</code> (by meaning) <button class="link" onClick={backToSearch}>← back to the search</button>
        </div>
      )}
      <div class={shown ? 'results' : 'results idle'} ref={list} role="list" aria-label="Hits (j/k to move, Enter to open)" tabIndex={shown ? 0 : -1} aria-hidden={!shown}>
      {groups.map((g) => {
        const { dir, name } = splitPath(g.path);
        const first = g.hits[0].h;
        return (
          <section class={`group${g.path === openPath ? ' open' : ''}`}>
            <header class="file-head">
              <span class="dir">{dir}</span>
              <span class="name">{name}</span>
              <span class={`badge lang-${first.lang}`}>{first.lang}</span>
              {first.paired?.map((p) => (
                <button class="pair" title={`paired: ${p}`} onClick={() => void openFile(p)}>
                  {pairLabel(p, g.path)}
                </button>
              ))}
            </header>
            {g.hits.map(({ h, i }) => (
              <div
                class={`hit${i === sel ? ' sel' : ''}`}
                role="listitem"
                data-rank={h.rank}
                onClick={() => {
                  selected.value = i;
                  void openHit(h);
                }}
              >
                <div class="hit-head">
                  <span class="lines">L{h.start_line}–{h.end_line}</span>
                  {h.symbol && (
                    <span class="symbol">
                      <span class="kind">{h.symbol.kind}</span> {h.symbol.name}
                    </span>
                  )}
                  <span class={`badge hitkind-${h.hit_kind}`} title={h.note ?? 'keyword match in text'}>{h.hit_kind}</span>
                  <span class="score" title={`fts ${h.fts_score}`}>{h.score.toFixed(2)}</span>
                  {more && (
                    <button
                      class="link more-like"
                      title="Chunks similar in meaning to this one"
                      onClick={(e) => {
                        e.stopPropagation();
                        void moreLikeThis(h.hit_id, `${h.path}:${h.start_line}`);
                      }}
                    >
                      more like this
                    </button>
                  )}
                </div>
                {h.match_lines && h.match_lines.length > 0 && (
                  <div class="match-lines" title="the lines where the exact text or regex matches">
                    {h.match_lines.length === 1 ? 'line' : 'lines'} {h.match_lines.slice(0, 12).join(', ')}
                    {h.match_lines.length > 12 && ` +${h.match_lines.length - 12}`}
                  </div>
                )}
                {snippet(h.snippet, h.match_lines, res.query, o)}
              </div>
            ))}
          </section>
        );
      })}
      {res.hits.length === 0 && <div class="empty-results">No hits. {res.hint}</div>}
      </div>
    </>
  );
}

/** Before the first query: what the index holds, and a few queries to start from, taken from it. */
function StartHere() {
  const st = status.value;
  const ws = current.value;
  const langs = Object.entries(st?.files_by_lang ?? {});
  // The index's version: examples are chosen once for it (and kept in the page's storage).
  const version = st?.index ? `${st.index.generation}@${st.index.indexed_at ?? ''}` : undefined;
  // The examples' module loads once the start screen is up (it is not needed to search). Their costly
  // call (a regex over every chunk for a route: ~0.1–0.3 s of the Worker on FluentAvalonia) is sent
  // only while this screen is still up: once typing has begun, a keystroke would wait behind it.
  // A reopened workspace asks nothing: they are kept per index version (examples.ts).
  const [ex, setEx] = useState<Example[]>([]);
  useEffect(() => {
    if (!ws || st?.status !== 'ok') return;
    let live = true;
    void import('./examples.ts')
      .then((m) => m.examplesFor(ws, version, () => live))
      .then((list) => live && setEx(list), () => {});
    return () => {
      live = false;
    };
  }, [ws, st?.status, version]);
  return (
    <div class="start-here">
      <h2>{current.value?.name}</h2>
      {langs.length > 0 && (
        <p>
          {langs.map(([lang, n]) => (
            <span class={`badge lang-${lang}`}>
              {lang} {n}
            </span>
          ))}
        </p>
      )}
      <p class="muted">Type an identifier, words or a phrase; every keystroke searches. Ctrl-P goes to a file by name; ? shows the query syntax.</p>
      {ex.length > 0 && (
        <p class="examples">
          <span class="muted">Try: </span>
          {ex.map((e) => (
            <button class="example" title={e.what} onClick={() => (setSearchOptions({ mode: e.mode }), setQuery(e.q))}>
              {e.q}
            </button>
          ))}
        </p>
      )}
    </div>
  );
}

// The search box (search as you type), the query mode — words (keyword channel), exact text or a
// regex (the literal channel, with case and whole-word switches), and with vectors hybrid and
// meaning (semantic) — the mode that answered, and the button of the query-syntax help popover
// (QueryHelp.tsx, loaded when first opened). Owns these controls; the request they make is controller.ts's.
import { answerSettled, current, isExact, overlay, query, results, searchOptions, searching, searchingSlowly, semanticOn, type QueryMode } from '../app/state.ts';
import { setQuery, setSearchOptions } from './controller.ts';
import { paneTab } from '../app/layout.ts';
import { lazyComponent } from '../app/lazy.tsx';

const QueryHelp = lazyComponent(() => import('./QueryHelp.tsx').then((m) => m.QueryHelp));

const MODES: Array<{ mode: QueryMode; label: string; title: string; semantic?: true }> = [
  { mode: 'keyword', label: 'words', title: 'Words, identifiers and phrases, ranked by BM25 (the keyword channel)' },
  { mode: 'literal', label: '""', title: 'Exact text: punctuation and parts of identifiers too (like grep -F)' },
  { mode: 'regex', label: '.*', title: 'A regular expression (RE2 syntax, like grep -E); the matching lines are listed' },
  { mode: 'hybrid', label: 'hybrid', title: 'Words plus meaning: keyword hits, then chunks similar in meaning (the workspace has vectors)', semantic: true },
  { mode: 'semantic', label: 'meaning', title: 'Meaning only: chunks nearest to the query by the embedding model', semantic: true },
];

function ModeSwitch() {
  const o = searchOptions.value;
  const exact = isExact(o.mode);
  return (
    <span class="mode-switch" role="group" aria-label="Query mode">
      {MODES.filter((m) => !m.semantic || semanticOn.value || o.mode === m.mode).map((m) => (
        <button key={m.mode} class={`seg${o.mode === m.mode ? ' on' : ''}`} data-mode={m.mode} aria-pressed={o.mode === m.mode} title={m.title} onClick={() => setSearchOptions({ mode: m.mode })}>
          {m.label}
        </button>
      ))}
      <button class={`seg opt${o.caseSensitive ? ' on' : ''}`} data-opt="case" aria-pressed={o.caseSensitive} disabled={!exact} title="Match case (exact text and regex)" onClick={() => setSearchOptions({ caseSensitive: !o.caseSensitive })}>
        Aa
      </button>
      <button class={`seg opt${o.wholeWord ? ' on' : ''}`} data-opt="word" aria-pressed={o.wholeWord} disabled={!exact} title="Whole words only (exact text and regex)" onClick={() => setSearchOptions({ wholeWord: !o.wholeWord })}>
        ab
      </button>
    </span>
  );
}

export const SEARCH_INPUT_ID = 'search-input';

export function SearchBar() {
  const ws = current.value;
  return (
    <div class="searchbar" data-searching={searching.value ? 'true' : undefined} data-settled={answerSettled.value && !searching.value ? 'true' : undefined}>
      <input
        id={SEARCH_INPUT_ID}
        type="text"
        role="searchbox"
        autocomplete="off"
        spellcheck={false}
        disabled={!ws}
        placeholder={ws ? (searchOptions.value.mode === 'regex' ? `Regex over ${ws.name}  ( / )` : searchOptions.value.mode === 'literal' ? `Exact text in ${ws.name}  ( / )` : `Search ${ws.name}  ( / )`) : 'Open a workspace to search'}
        value={query.value}
        onInput={(e) => {
          paneTab.value = 'hits';
          setQuery((e.target as HTMLInputElement).value);
        }}
      />
      {searchingSlowly.value && <span class="spinner" aria-label="searching" />}
      <ModeSwitch />
      {/* The mode that answered (a keyword query with re: or a quoted literal is answered as regex or literal). */}
      <span class="mode" title="The mode that answered">{results.value?.mode ?? searchOptions.value.mode}</span>
      <button class="icon" title="Query syntax and keys (?)" aria-label="Query syntax" onClick={() => (overlay.value = overlay.value === 'help' ? 'none' : 'help')}>
        ?
      </button>
      {overlay.value === 'help' && <QueryHelp />}
    </div>
  );
}

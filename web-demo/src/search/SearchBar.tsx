// The search box (search as you type), the query-syntax help popover, and the place where the search
// mode shows: today only the keyword channel exists, so it is a label naming the answer's mode; the
// keyword/hybrid choice goes here once the vector channel does. Owns these controls.
import type { ComponentChild } from 'preact';
import { current, overlay, query, results, searching } from '../app/state.ts';
import { setQuery } from './controller.ts';

export const SEARCH_INPUT_ID = 'search-input';

export function SearchBar() {
  const ws = current.value;
  return (
    <div class="searchbar">
      <input
        id={SEARCH_INPUT_ID}
        type="text"
        role="searchbox"
        autocomplete="off"
        spellcheck={false}
        disabled={!ws}
        placeholder={ws ? `Search ${ws.name}  ( / )` : 'Open a workspace to search'}
        value={query.value}
        onInput={(e) => setQuery((e.target as HTMLInputElement).value)}
      />
      {searching.value && <span class="spinner" aria-label="searching" />}
      {/* The mode's place: a label now, the keyword/hybrid choice when vectors exist. */}
      <span class="mode" title="The keyword channel (FTS5/BM25). A keyword/hybrid choice appears here once the semantic channel exists.">
        {results.value?.mode ?? 'keyword'}
      </span>
      <button class="icon" title="Query syntax and keys (?)" aria-label="Query syntax" onClick={() => (overlay.value = overlay.value === 'help' ? 'none' : 'help')}>
        ?
      </button>
      {overlay.value === 'help' && <QueryHelp />}
    </div>
  );
}

const SYNTAX: Array<[string, string]> = [
  ['GetCatalogItemsAsync', 'an identifier; camelCase, PascalCase and snake_case parts match too (catalog items)'],
  ['order total', 'every word must match (when none holds all, hits that hold some follow, and match says so)'],
  ['"shopping cart"', 'an exact phrase'],
  ['Catal*', 'a prefix'],
  ['path:src/Web/', 'only under a folder (a prefix or a glob such as **/*.razor)'],
  ['-path:tests/', 'leave a folder out'],
  ['ext:cs,razor', 'only these extensions'],
  ['how is the cart priced', 'a question: stop words are dropped'],
];

const KEYS: Array<[string, string]> = [
  ['/', 'focus the search box'],
  ['j / k', 'next / previous hit'],
  ['Enter', 'open the selected hit'],
  ['Esc', 'close the viewer or a dialog'],
  ['Ctrl-P', 'go to file'],
  ['Ctrl-click', 'go to the definition of an identifier in the viewer'],
];

function Rows({ rows, left }: { rows: Array<[string, string]>; left: (s: string) => ComponentChild }) {
  return (
    <table>
      {rows.map(([a, what]) => (
        <tr>
          <td>{left(a)}</td>
          <td>{what}</td>
        </tr>
      ))}
    </table>
  );
}

function QueryHelp() {
  return (
    <div class="popover help" role="dialog" aria-label="Query syntax">
      <h3>Query syntax</h3>
      <Rows rows={SYNTAX} left={(q) => <code>{q}</code>} />
      <p class="muted">Hits are keyword matches in text (<code>text_fts</code>): for C#, usages and renames need the compiler.</p>
      <h3>Keys</h3>
      <Rows rows={KEYS} left={(k) => <kbd>{k}</kbd>} />
    </div>
  );
}

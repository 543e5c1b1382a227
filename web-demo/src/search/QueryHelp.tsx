// The query-syntax and keys popover of the search bar (the `?` button or key): what a query can say,
// and the explorer's keys. Loaded when first opened (not needed to search). Owns this text only.
import type { ComponentChild } from 'preact';

const SYNTAX: Array<[string, string]> = [
  ['GetCatalogItemsAsync', 'an identifier; camelCase, PascalCase and snake_case parts match too (catalog items)'],
  ['order total', 'every word must match (when none holds all, hits that hold some follow, and match says so)'],
  ['"shopping cart"', 'an exact phrase'],
  ['Catal*', 'a prefix'],
  ['path:src/Web/', 'only under a folder (a prefix or a glob such as **/*.razor)'],
  ['-path:tests/', 'leave a folder out'],
  ['re:Get\\w+Async', 'a regex inside a words query; or switch the mode to .* (regex) or "" (exact text): the whole box is the pattern'],
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
  ['Shift-↓ / ↑', 'in the file (focused): mark lines on from where marking began; Shift-Home / End to the first / last line'],
  ['Alt-↓ / ↑', 'in the file: mark the next / previous line alone (the link follows: #L10-20)'],
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

export function QueryHelp() {
  return (
    <div class="popover help" role="dialog" aria-label="Query syntax">
      <h2>Query syntax</h2>
      <Rows rows={SYNTAX} left={(q) => <code>{q}</code>} />
      <p class="muted">Hits are keyword matches in text (<code>text_fts</code>): for C#, usages and renames need the compiler.</p>
      <h2>Keys</h2>
      <Rows rows={KEYS} left={(k) => <kbd>{k}</kbd>} />
    </div>
  );
}

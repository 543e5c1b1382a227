// The scope of a commit-style query: "MudAutocomplete: fix ResetAsync not opening", "DataGrid: fix
// filter popups", "TabControl/TabStrip: selection indicator" — the names before a leading colon say
// which component the rest is about (conventional commits write `fix(scope): …`, issue titles and
// changelog lines `Scope: …`). A file named after the scope, or in a folder named after it, is more
// likely the one meant than a neighbour that merely shares the words (a form that also has a
// `ResetAsync`). Owns reading the scope from the query text and matching it against a path; the
// factor (setting scope_match_boost) is applied by rerank.ts and shown in explain as `query_scope`.
import { splitIdentifier } from '../text/analyzer.ts';
import { asciiTwin } from '../ascii-regex.ts';

/** `Scope: rest` or `Scope1/Scope2: rest`: identifier-like names, then a colon and a space. */
const SCOPE = asciiTwin('^\\s*([\\p{L}_][\\p{L}\\p{N}_.]*(?:\\s*\\/\\s*[\\p{L}_][\\p{L}\\p{N}_.]*){0,2})\\s*:\\s+\\S', 'u');

/** The scope's names, each as its lowercase identifier parts (null: the query has no scope prefix). */
export function queryScope(raw: string): string[][] | null {
  const m = SCOPE.for(raw).exec(raw);
  if (!m) return null;
  const names = m[1].split('/').map((s) => splitIdentifier(s.trim())).filter((p) => p.length > 0 && p.join('').length >= 4);
  return names.length ? names : null;
}

/** Whether `parts` holds `run` as consecutive parts. */
function holdsRun(parts: readonly string[], run: readonly string[]): boolean {
  for (let i = 0; i + run.length <= parts.length; i++) if (run.every((p, j) => parts[i + j] === p)) return true;
  return false;
}

/**
 * Whether the path lies in the scope: its file name (up to the first dot) or its folder holds one of
 * the scope's names as a run of identifier parts (`DataGrid` → `MudDataGrid.razor.cs`, `Table` →
 * `_table.scss`, `Localization` → `Localization/MudLocalizer.cs`).
 */
export function inScope(path: string, scope: readonly string[][]): boolean {
  const segs = path.split('/');
  const name = segs.pop() ?? '';
  const stem = splitIdentifier(name.split('.')[0]);
  const folder = segs.length ? splitIdentifier(segs[segs.length - 1]) : [];
  return scope.some((run) => holdsRun(stem, run) || holdsRun(folder, run));
}

// Path → language id, extension and path-kind heuristics (test code, generated code). Owns only
// the naming rules; which extension is which language is the language table's (core/languages/),
// reading files and deciding what to index are the walker's and indexer's jobs.
import { languageOfExtension, type LangId } from '../languages/table.ts';

export type { LangId } from '../languages/table.ts';

/** The last path segment. */
export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/**
 * Lower-cased extension with its dot ('.cs' for 'Foo.razor.cs'). A dot-file without another dot is
 * its own extension ('.editorconfig', '.gitignore', '.env'); no extension → ''.
 */
export function extensionOf(path: string): string {
  const name = baseName(path).toLowerCase();
  const dot = name.lastIndexOf('.');
  if (dot <= 0) return dot === 0 ? name : '';
  if (dot === name.length - 1) return '';
  return name.slice(dot);
}

/** Language id of a workspace path; 'text' when unknown. */
export function languageOf(path: string): LangId {
  return languageOfExtension(extensionOf(path));
}

const TEST_DIR = /^(?:tests?|__tests__|specs?)$/i;
const TEST_PROJECT_DIR = /\.(?:Unit|Integration|Functional|Acceptance|E2E)?(?:Tests?|Specs?)$/i;
const TEST_FILE = /(?:Tests?\.cs|\.(?:test|spec)\.[cm]?[jt]sx?)$/;

/** Heuristic: does the path look like test code? */
export function isTestPath(path: string): boolean {
  const segs = path.split('/');
  const name = segs.pop() ?? '';
  if (TEST_FILE.test(name)) return true;
  return segs.some((s) => TEST_DIR.test(s) || TEST_PROJECT_DIR.test(s));
}

const GENERATED_FILE =
  /(?:\.g\.cs|\.g\.i\.cs|\.designer\.cs|\.assemblyinfo\.cs|\.min\.js|\.min\.css)$|\.generated\./i;

/** Heuristic: does the path look like generated or vendored code? */
export function isGeneratedPath(path: string): boolean {
  if (GENERATED_FILE.test(baseName(path))) return true;
  if (/(?:^|\/)wwwroot\/lib\//i.test(path)) return true;
  // EF Core: model snapshots and timestamped migrations are tool output.
  if (/(?:^|\/)Migrations\/(?:[^/]*ModelSnapshot\.cs|\d{14}_[^/]*\.cs)$/.test(path)) return true;
  return false;
}

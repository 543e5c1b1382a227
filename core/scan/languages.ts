// Path → language id and extension. Owns only the naming rules (path roles — test, generated, demo…
// — are roles.ts's); which extension is which language is the language table's (core/languages/),
// reading files and deciding what to index are the walker's and indexer's jobs.
import { languageOfExtension, type LangId } from '../languages/table.ts';

export type { LangId } from '../languages/table.ts';

/** The last path segment. */
export function baseName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? path : path.slice(i + 1);
}

/** The file's name up to its first dot (`FATabView` for `FATabView.properties.cs`; '' for a dot-file). */
export function nameStem(path: string): string {
  const name = baseName(path);
  const dot = name.indexOf('.');
  return dot < 0 ? name : name.slice(0, dot);
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

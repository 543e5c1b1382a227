// The language table: one row per language hci knows — its extensions (and which of them are indexed
// by default), its outline extractor (loaded on first use), the tree-sitter grammars that extractor
// parses with (ids of the grammar table, grammars.ts), how its member keys spell a key path, which
// files pair with it (view ↔ code-behind ↔ scoped CSS), whether its text is code for the secrets
// scan, whether its hits need a compiler's word on symbol facts, how its files are views, its comment
// syntaxes and whether it is a stylesheet. Everything that used to list languages reads this table:
// the scanner (languageOf), the settings' default include_extensions, the chunker's registry, search
// (key paths, pairs, the compiler note, views, commented-out code, style chunks), the secrets scan, and every runtime's grammar loader through the grammar table. It imports no extractor
// eagerly, so settings and search can read it without loading the chunkers or tree-sitter.
//
// Adding a language: a row here, an extractor in core/chunk/lang/, a grammar-table entry if it needs
// a new grammar, and a sample file under test/ (test/language-wiring.test.ts runs every row in Node,
// Deno and Chromium; test/chunker-version.test.ts then asks for a CHUNKER_VERSION bump).
import type { OutlineExtractor } from '../chunk/input.ts';
import type { GrammarId } from './grammars.ts';

export interface LanguageRow {
  /** Stable id: stored per file in the index, shown as a hit's `lang`, passed to the extractor. */
  id: string;
  /** Extensions indexed by default (settings' include_extensions), lower-case with the dot. */
  extensions: readonly string[];
  /** Extensions recognised as this language but indexed only when include_extensions lists them. */
  otherExtensions?: readonly string[];
  /** The outline extractor, imported on first use; without one the language is cut into line windows. */
  extractor?: () => Promise<OutlineExtractor>;
  /** Every grammar the extractor parses with (the wiring test checks the list is exact). */
  grammars: readonly GrammarId[];
  /** How the extractor spells a chunk's key path as its member key (json `A:B`, yaml `a.b`). */
  keyPathSeparator?: string;
  /**
   * A view whose companion files are named after it: `<view path><codeBehind>` (the C# code-behind,
   * also matched by the view's outline key ↔ the C# type's key) and `<view path><scopedCss>`.
   */
  companions?: { codeBehind: string; scopedCss?: string };
  /** An unquoted right-hand side is code (an expression), never a secret literal (core/scan/secrets.ts). */
  code?: boolean;
  /**
   * Compiled code whose symbol facts (usages, overrides, renames) only a compiler knows: its hits,
   * text matches, carry a note saying so (core/search/present.ts).
   */
  compilerNote?: boolean;
  /**
   * How a file of this language is a view, for UI questions (core/search/ui.ts): `routed`, a page
   * with an `@page` route, titled by `<PageTitle>`; `markup`, a document whose root element is a
   * page, view or window, titled by its `Title="…"`.
   */
  view?: 'routed' | 'markup';
  /**
   * The comment syntaxes of its files, for telling commented-out code from live lines
   * (core/search/dead-code.ts): `c` (`//`, `/* *\/`, and `#if` / `#region` directives), `markup`
   * (`<!-- -->`), `razor` (`@* *@`).
   */
  comments?: readonly CommentSyntax[];
  /** Its files are stylesheets: every chunk styles something (core/search/appearance.ts). */
  stylesheet?: boolean;
}

export type CommentSyntax = 'c' | 'markup' | 'razor';

// Row order is the order of the default include_extensions list.
const ROWS = [
  { id: 'csharp', extensions: ['.cs'], grammars: ['c_sharp'], code: true, compilerNote: true, comments: ['c'],
    extractor: () => import('../chunk/lang/csharp.ts').then((m) => m.extractCSharp) },
  { id: 'razor', extensions: ['.razor', '.cshtml'], grammars: ['c_sharp', 'html'], code: true, compilerNote: true, view: 'routed',
    companions: { codeBehind: '.cs', scopedCss: '.css' }, comments: ['c', 'markup', 'razor'],
    extractor: () => import('../chunk/lang/razor.ts').then((m) => m.extractRazor) },
  { id: 'axaml', extensions: ['.axaml'], grammars: [], code: true, view: 'markup', companions: { codeBehind: '.cs' }, comments: ['markup'],
    extractor: () => import('../chunk/lang/xaml.ts').then((m) => m.extractXaml) },
  { id: 'xaml', extensions: ['.xaml'], grammars: [], code: true, view: 'markup', companions: { codeBehind: '.cs' }, comments: ['markup'],
    extractor: () => import('../chunk/lang/xaml.ts').then((m) => m.extractXaml) },
  { id: 'markdown', extensions: ['.md', '.mdx'], grammars: [],
    extractor: () => import('../chunk/lang/markdown.ts').then((m) => m.extractMarkdown) },
  { id: 'sln', extensions: ['.sln'], grammars: [],
    extractor: () => import('../chunk/lang/sln.ts').then((m) => m.extractSln) },
  { id: 'slnx', extensions: ['.slnx'], grammars: [],
    extractor: () => import('../chunk/lang/sln.ts').then((m) => m.extractSlnx) },
  { id: 'msbuild', extensions: ['.csproj', '.props', '.targets'], otherExtensions: ['.vbproj', '.fsproj', '.proj'], grammars: [], comments: ['markup'],
    extractor: () => import('../chunk/lang/msbuild.ts').then((m) => m.extractMsbuild) },
  { id: 'json', extensions: ['.json'], otherExtensions: ['.jsonc'], grammars: [], keyPathSeparator: ':',
    extractor: () => import('../chunk/lang/json.ts').then((m) => m.extractJson) },
  { id: 'yaml', extensions: ['.yml', '.yaml'], grammars: ['yaml'], keyPathSeparator: '.',
    extractor: () => import('../chunk/lang/yaml.ts').then((m) => m.extractYaml) },
  { id: 'toml', extensions: ['.toml'], grammars: [],
    extractor: () => import('../chunk/lang/toml.ts').then((m) => m.extractToml) },
  { id: 'editorconfig', extensions: ['.editorconfig'], grammars: [],
    extractor: () => import('../chunk/lang/editorconfig.ts').then((m) => m.extractEditorconfig) },
  { id: 'html', extensions: ['.html'], otherExtensions: ['.htm'], grammars: ['html', 'javascript'], code: true, comments: ['markup'],
    extractor: () => import('../chunk/lang/web.ts').then((m) => m.extractHtml) },
  { id: 'css', extensions: ['.css'], grammars: [], code: true, comments: ['c'], stylesheet: true,
    extractor: () => import('../chunk/lang/css.ts').then((m) => m.extractCss) },
  { id: 'scss', extensions: ['.scss'], grammars: [], code: true, comments: ['c'], stylesheet: true,
    extractor: () => import('../chunk/lang/css.ts').then((m) => m.extractCss) },
  { id: 'javascript', extensions: ['.js', '.mjs', '.cjs'], grammars: ['javascript'], code: true, comments: ['c'],
    extractor: () => import('../chunk/lang/script.ts').then((m) => m.extractScript) },
  // JSX is JavaScript's grammar; TSX needs a grammar of its own (`<T>x` casts and JSX cannot share one).
  { id: 'jsx', extensions: ['.jsx'], grammars: ['javascript'], code: true, comments: ['c'],
    extractor: () => import('../chunk/lang/script.ts').then((m) => m.extractScript) },
  { id: 'typescript', extensions: ['.ts', '.mts', '.cts'], grammars: ['typescript'], code: true, comments: ['c'],
    extractor: () => import('../chunk/lang/script.ts').then((m) => m.extractScript) },
  { id: 'tsx', extensions: ['.tsx'], grammars: ['tsx'], code: true, comments: ['c'],
    extractor: () => import('../chunk/lang/script.ts').then((m) => m.extractScript) },
] as const satisfies readonly LanguageRow[];

/** A language id; `text` is every file no row claims (line windows). */
export type LangId = (typeof ROWS)[number]['id'] | 'text';

export const LANGUAGES: readonly LanguageRow[] = ROWS;

const BY_ID = new Map<string, LanguageRow>(ROWS.map((r) => [r.id, r]));
const ID_BY_EXTENSION = new Map<string, LangId>();
for (const row of ROWS) {
  for (const ext of [...row.extensions, ...((row as LanguageRow).otherExtensions ?? [])]) {
    // A programming error in the table above; test/language-wiring.test.ts reports it first.
    if (ID_BY_EXTENSION.has(ext)) throw new Error(`language table: ${ext} is claimed by ${ID_BY_EXTENSION.get(ext)} and ${row.id}`);
    ID_BY_EXTENSION.set(ext, row.id);
  }
}

/** The row of a language id (undefined for `text` and unknown ids). */
export function languageById(id: string): LanguageRow | undefined {
  return BY_ID.get(id);
}

/** The language of a lower-case extension with its dot; `text` when no row claims it. */
export function languageOfExtension(ext: string): LangId {
  return ID_BY_EXTENSION.get(ext) ?? 'text';
}

/** The default of the include_extensions setting: every row's default extensions, in table order. */
export const DEFAULT_EXTENSIONS: readonly string[] = ROWS.flatMap((r) => r.extensions);

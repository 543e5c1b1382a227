// The grammar table: every tree-sitter wasm file hci loads, named once as an npm package and a path
// inside it — the grammars the language table (table.ts) refers to, plus web-tree-sitter's own
// runtime. A runtime only turns an entry into bytes: Node and Deno read `<package>/<file>` from
// node_modules (runtimes/node/grammars.ts, runtimes/deno/grammars.ts), the browser fetches the URL
// the Vite plugin emits for it (runtimes/browser/vite-plugin.ts). Which language parses with which
// grammar is the language table's business, not this one's.
//
// Packaging: the grammar packages are devDependencies. The build (scripts/build-assets.mjs) copies
// exactly the GRAMMARS files, gzipped, with their packages' licences, into `dist/grammars/` at
// `packagedGrammarPath(f)`, so an installed hci holds only the grammars it loads (a few hundred KB
// instead of two packages of 20-60 MB, one of them a native addon with an install script). The Node
// and Deno loaders read that copy when it is there and the package in node_modules otherwise (a
// clone run from source); either way TreeSitterHost inflates gzip bytes (core/chunk/treesitter.ts).
// The runtime (TREE_SITTER_RUNTIME) is not copied: web-tree-sitter is a dependency, and its JS and
// wasm must stay one version.

/** A wasm file in an installed npm package. */
export interface WasmFile {
  package: string;
  /** Path inside the package (an exported subpath where the package has an `exports` map). */
  file: string;
}

const cursorless = (name: string): WasmFile => ({ package: '@cursorless/tree-sitter-wasms', file: `out/tree-sitter-${name}.wasm` });

/** web-tree-sitter's runtime (tree-sitter.wasm): loaded once, before any grammar. */
export const TREE_SITTER_RUNTIME: WasmFile = { package: 'web-tree-sitter', file: 'tree-sitter.wasm' };

/** Grammar id → its wasm file. An id is what extractors pass to TreeSitterHost.parse. */
export const GRAMMARS = {
  // VS Code's build of tree-sitter-c-sharp (no install script, unlike the tree-sitter-c-sharp package,
  // whose native addon compiles where no prebuild fits). It predates collection-expression nodes, yet
  // chunks identically: the whole corpus here and 837 C#/Razor files of three public .NET repositories.
  c_sharp: { package: '@vscode/tree-sitter-wasm', file: 'wasm/tree-sitter-c-sharp.wasm' },
  html: cursorless('html'),
  javascript: cursorless('javascript'),
  typescript: cursorless('typescript'),
  tsx: cursorless('tsx'),
  yaml: cursorless('yaml'),
} as const satisfies Record<string, WasmFile>;

export type GrammarId = keyof typeof GRAMMARS;

export const GRAMMAR_IDS = Object.keys(GRAMMARS) as GrammarId[];

/** The bare specifier of a wasm file (`web-tree-sitter/tree-sitter.wasm`), for resolvers. */
export function wasmSpecifier(f: WasmFile): string {
  return `${f.package}/${f.file}`;
}

/** Where the build puts a grammar's gzipped copy, relative to `dist/` (runtimes resolve it next to their own module). */
export function packagedGrammarPath(f: WasmFile): string {
  return `grammars/${f.package}/${f.file}.gz`;
}

// The grammar table: every tree-sitter wasm file hci loads, named once as an npm package and a path
// inside it — the grammars the language table (table.ts) refers to, plus web-tree-sitter's own
// runtime. A runtime only turns an entry into bytes: Node and Deno read `<package>/<file>` from
// node_modules (runtimes/node/grammars.ts, runtimes/deno/grammars.ts), the browser fetches the URL
// the Vite plugin emits for it (runtimes/browser/vite-plugin.ts). Packaging ships exactly these files.
// Which language parses with which grammar is the language table's business, not this one's.

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
  c_sharp: { package: 'tree-sitter-c-sharp', file: 'tree-sitter-c_sharp.wasm' },
  xml: cursorless('xml'),
  html: cursorless('html'),
  javascript: cursorless('javascript'),
  typescript: cursorless('typescript'),
  yaml: cursorless('yaml'),
} as const satisfies Record<string, WasmFile>;

export type GrammarId = keyof typeof GRAMMARS;

export const GRAMMAR_IDS = Object.keys(GRAMMARS) as GrammarId[];

/** The bare specifier of a wasm file (`tree-sitter-c-sharp/tree-sitter-c_sharp.wasm`), for resolvers. */
export function wasmSpecifier(f: WasmFile): string {
  return `${f.package}/${f.file}`;
}

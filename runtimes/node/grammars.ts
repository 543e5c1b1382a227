// Tree-sitter wasm files for Node (and Deno through node: compatibility): each grammar-table entry
// (core/languages/grammars.ts) resolved as `<package>/<file>` from hci's own installed dependencies
// and read with node:fs. Owns only how an entry becomes a path and bytes; which files exist is the
// table's. The Vite plugin resolves the same paths for the browser build.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { GrammarSource } from '../../core/chunk/treesitter.ts';
import { GRAMMARS, TREE_SITTER_RUNTIME, wasmSpecifier, type WasmFile } from '../../core/languages/grammars.ts';

const require = createRequire(import.meta.url);

/** The absolute path of a grammar-table file in node_modules (throws when the package is missing). */
export function wasmFilePath(f: WasmFile): string {
  return require.resolve(wasmSpecifier(f));
}

export function createNodeGrammarSource(): GrammarSource {
  return {
    runtime: async () => new Uint8Array(await readFile(wasmFilePath(TREE_SITTER_RUNTIME))),
    grammar: async (name) => new Uint8Array(await readFile(wasmFilePath(GRAMMARS[name]))),
  };
}

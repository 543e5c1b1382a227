// Tree-sitter wasm files for Node (and Deno through node: compatibility): each grammar-table entry
// (core/languages/grammars.ts) as a path and bytes. An installed hci reads the gzipped copy its build
// put in `dist/grammars/` (the grammar packages are devDependencies, absent there); a clone run from
// source reads `<package>/<file>` from node_modules. Owns only how an entry becomes a path and bytes;
// which files exist is the table's. The Vite plugin resolves the same paths for the browser build.
// Grammars are compiled without V8's tier-up (wasm-tiering.ts).
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type { GrammarSource } from '../../core/chunk/treesitter.ts';
import { baselineOnly } from './wasm-tiering.ts';
import { GRAMMARS, TREE_SITTER_RUNTIME, packagedGrammarPath, wasmSpecifier, type WasmFile } from '../../core/languages/grammars.ts';

const require = createRequire(import.meta.url);

/** The build's gzipped copy of a grammar (this module sits in dist/runtimes/node/ when built). */
export function packagedGrammarFile(f: WasmFile): string {
  return fileURLToPath(new URL(`../../${packagedGrammarPath(f)}`, import.meta.url));
}

/** The absolute path of a grammar-table file in node_modules (throws when the package is missing). */
export function wasmFilePath(f: WasmFile): string {
  return require.resolve(wasmSpecifier(f));
}

/** Where a grammar's bytes are read from: the packaged copy when present, else its package. */
export function grammarFilePath(f: WasmFile): string {
  const packaged = packagedGrammarFile(f);
  return existsSync(packaged) ? packaged : wasmFilePath(f);
}

export function createNodeGrammarSource(): GrammarSource {
  return {
    runtime: async () => new Uint8Array(await readFile(wasmFilePath(TREE_SITTER_RUNTIME))),
    grammar: async (name) => new Uint8Array(await readFile(grammarFilePath(GRAMMARS[name]))),
    compileGrammar: baselineOnly,
  };
}

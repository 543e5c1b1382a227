// Tree-sitter wasm files for Deno: each grammar-table entry (core/languages/grammars.ts) located with
// import.meta.resolve(`<package>/<file>`) in the installed npm packages (the same files
// runtimes/node/grammars.ts reads, so chunks are identical across runtimes) and read with
// Deno.readFile. Needs read permission on the node_modules folder holding hci's dependencies.
import type { GrammarSource } from '../../core/chunk/treesitter.ts';
import { GRAMMARS, TREE_SITTER_RUNTIME, wasmSpecifier, type WasmFile } from '../../core/languages/grammars.ts';
import { deno } from './deno-api.ts';

const read = (f: WasmFile) => deno().readFile(new URL(import.meta.resolve(wasmSpecifier(f))));

export function createDenoGrammarSource(): GrammarSource {
  return {
    runtime: () => read(TREE_SITTER_RUNTIME),
    grammar: (name) => read(GRAMMARS[name]),
  };
}

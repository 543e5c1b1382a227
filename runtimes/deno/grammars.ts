// Tree-sitter wasm files for Deno: each grammar-table entry (core/languages/grammars.ts) read with
// Deno.readFile — from the gzipped copy the build put in `dist/grammars/` when this module runs from
// an installed package (dist/runtimes/deno/), else located with import.meta.resolve(`<package>/<file>`)
// in the installed npm packages (a clone run from source). The same files runtimes/node/grammars.ts
// reads, so chunks are identical across runtimes. Needs read permission on the node_modules folder
// holding hci and its dependencies (a refused read is `permission_needed` naming it).
import type { GrammarSource } from '../../core/chunk/treesitter.ts';
import { GRAMMARS, TREE_SITTER_RUNTIME, packagedGrammarPath, wasmSpecifier, type WasmFile } from '../../core/languages/grammars.ts';
import { deno, isPermissionError, readInstalledFile } from './deno-api.ts';

const fromPackage = (f: WasmFile) => readInstalledFile(new URL(import.meta.resolve(wasmSpecifier(f))), `the tree-sitter file ${f.file}`);

/** Compiled (dist/runtimes/deno/grammars.js): the build's grammar copy sits in dist/grammars/. */
const BUILT = import.meta.url.endsWith('.js');

async function grammarBytes(f: WasmFile): Promise<Uint8Array> {
  // Run from source, the packaged copy is never there — and probing for it would need read
  // permission on the repository itself rather than only its node_modules.
  if (!BUILT) return fromPackage(f);
  const packaged = new URL(`../../${packagedGrammarPath(f)}`, import.meta.url);
  try {
    return await deno().readFile(packaged);
  } catch (e) {
    if (isPermissionError(e)) return readInstalledFile(packaged, `the grammar ${f.file}`);
    if ((e as Error).name !== 'NotFound') throw e;
    return fromPackage(f);
  }
}

export function createDenoGrammarSource(): GrammarSource {
  return {
    runtime: () => fromPackage(TREE_SITTER_RUNTIME),
    grammar: (name) => grammarBytes(GRAMMARS[name]),
  };
}

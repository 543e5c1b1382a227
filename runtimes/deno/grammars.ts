// Tree-sitter wasm files for Deno: located with import.meta.resolve in the installed npm packages (the
// same files runtimes/node/grammars.ts reads, so chunks are identical across runtimes) and read with
// Deno.readFile. Needs read permission on the node_modules folder holding hci's dependencies.
import type { GrammarName, GrammarSource } from '../../core/chunk/treesitter.ts';
import { deno } from './deno-api.ts';

const cursorless = (name: string) => `@cursorless/tree-sitter-wasms/out/tree-sitter-${name}.wasm`;

const FILES: Record<GrammarName, string> = {
  c_sharp: 'tree-sitter-c-sharp/tree-sitter-c_sharp.wasm',
  xml: cursorless('xml'),
  html: cursorless('html'),
  css: cursorless('css'),
  scss: cursorless('scss'),
  javascript: cursorless('javascript'),
  typescript: cursorless('typescript'),
  json: cursorless('json'),
  yaml: cursorless('yaml'),
  markdown: cursorless('markdown'),
};

export function createDenoGrammarSource(): GrammarSource {
  return {
    // web-tree-sitter exports its wasm as a subpath; resolve its main module and take the sibling.
    runtime: async () => deno().readFile(new URL('tree-sitter.wasm', import.meta.resolve('web-tree-sitter'))),
    grammar: async (name) => deno().readFile(new URL(import.meta.resolve(FILES[name]))),
  };
}

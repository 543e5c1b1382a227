// Tree-sitter wasm files for Node (and Deno through node: compatibility): located in the installed
// npm packages and read with node:fs. Owns only where each grammar comes from.
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import type { GrammarName, GrammarSource } from '../../core/chunk/treesitter.ts';

const require = createRequire(import.meta.url);

function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/** web-tree-sitter's package.json is not exported; find its folder from its main module instead. */
function webTreeSitterDir(): string {
  return path.dirname(require.resolve('web-tree-sitter'));
}

const FILES: Record<GrammarName, () => string> = {
  c_sharp: () => path.join(packageDir('tree-sitter-c-sharp'), 'tree-sitter-c_sharp.wasm'),
  xml: () => cursorless('xml'),
  html: () => cursorless('html'),
  css: () => cursorless('css'),
  scss: () => cursorless('scss'),
  javascript: () => cursorless('javascript'),
  typescript: () => cursorless('typescript'),
  json: () => cursorless('json'),
  yaml: () => cursorless('yaml'),
  markdown: () => cursorless('markdown'),
};

function cursorless(name: string): string {
  return path.join(packageDir('@cursorless/tree-sitter-wasms'), 'out', `tree-sitter-${name}.wasm`);
}

export function createNodeGrammarSource(): GrammarSource {
  return {
    runtime: async () => new Uint8Array(await readFile(path.join(webTreeSitterDir(), 'tree-sitter.wasm'))),
    grammar: async (name) => new Uint8Array(await readFile(FILES[name]())),
  };
}

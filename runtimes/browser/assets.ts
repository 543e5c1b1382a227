// The wasm files as Vite `?url` imports: Vite copies each into the build and hands back its URL, so
// the Worker fetches them from the page's own origin. Bundler-specific by design; with another
// bundler, pass your own WasmUrls to createWorkerApi(). The grammar set mirrors the Node runtime's
// (runtimes/node/grammars.ts), which keeps chunks, and so results, identical across runtimes.
import sqliteWasm from '@sqlite.org/sqlite-wasm/sqlite3.wasm?url';
import treeSitter from 'web-tree-sitter/tree-sitter.wasm?url';
import c_sharp from 'tree-sitter-c-sharp/tree-sitter-c_sharp.wasm?url';
import xml from '@cursorless/tree-sitter-wasms/out/tree-sitter-xml.wasm?url';
import html from '@cursorless/tree-sitter-wasms/out/tree-sitter-html.wasm?url';
import css from '@cursorless/tree-sitter-wasms/out/tree-sitter-css.wasm?url';
import scss from '@cursorless/tree-sitter-wasms/out/tree-sitter-scss.wasm?url';
import javascript from '@cursorless/tree-sitter-wasms/out/tree-sitter-javascript.wasm?url';
import typescript from '@cursorless/tree-sitter-wasms/out/tree-sitter-typescript.wasm?url';
import json from '@cursorless/tree-sitter-wasms/out/tree-sitter-json.wasm?url';
import yaml from '@cursorless/tree-sitter-wasms/out/tree-sitter-yaml.wasm?url';
import markdown from '@cursorless/tree-sitter-wasms/out/tree-sitter-markdown.wasm?url';
import type { WasmUrls } from './loaders.ts';

export const defaultWasmUrls: WasmUrls = {
  sqliteWasm,
  treeSitter,
  grammars: { c_sharp, xml, html, css, scss, javascript, typescript, json, yaml, markdown },
};

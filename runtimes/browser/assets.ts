// The wasm files as Vite `?url` imports: Vite copies each into the build and hands back its URL, so
// the Worker fetches them from the page's own origin. Bundler-specific by design: the tree-sitter
// URLs come from hciVitePlugin()'s generated module (one per grammar-table entry, the same files the
// Node and Deno runtimes read, which keeps chunks, and so results, identical across runtimes). With
// another bundler, pass your own WasmUrls to createWorkerApi().
import sqliteWasm from '@sqlite.org/sqlite-wasm/sqlite3.wasm?url';
import treeSitterUrls from 'virtual:hci-tree-sitter-urls';
import type { WasmUrls } from './loaders.ts';

export const defaultWasmUrls: WasmUrls = { sqliteWasm, ...treeSitterUrls };

// Loading the WebAssembly parts in a browser by URL: the SQLite build and tree-sitter's runtime and
// grammars. Owns only fetching; which files exist is the grammar table's (core/languages/grammars.ts),
// which URLs to use is the page's or the bundler's business (see assets.ts for the Vite defaults). No network beyond these URLs is ever touched.
import { HciError } from '../../core/platform.ts';
import type { GrammarName, GrammarSource } from '../../core/chunk/treesitter.ts';
import { GRAMMAR_IDS } from '../../core/languages/grammars.ts';
import { initQuietly, type EngineLoader } from '../../core/sqlite/engine.ts';

export interface WasmUrls {
  /** `@sqlite.org/sqlite-wasm/sqlite3.wasm` (default: next to the package's module, as it resolves itself). */
  sqliteWasm?: string;
  /** `web-tree-sitter/tree-sitter.wasm`. Without it (and the grammars) files are cut into line windows. */
  treeSitter?: string;
  /** One URL per grammar-table entry (core/languages/grammars.ts), all of them: required with `treeSitter`. */
  grammars?: Record<GrammarName, string>;
  /** hci's pretrained code model (models/code-model.bin): fetched only when the `pretrained` semantic provider first embeds. */
  codeModel?: string;
}

/** The official SQLite build, its wasm fetched from `wasmUrl`. */
export function createUrlEngineLoader(wasmUrl?: string): EngineLoader {
  return async () => {
    const sqlite3 = await initQuietly(wasmUrl ? { locateFile: () => wasmUrl } : {});
    return { sqlite3, label: `sqlite-wasm ${sqlite3.version.libVersion}`, hasVectors: false };
  };
}

export async function fetchBytes(url: string, what: string): Promise<Uint8Array> {
  let res: Response;
  try {
    res = await fetch(url);
  } catch (e) {
    throw new HciError('asset_unavailable', `cannot fetch ${what} from ${url}: ${(e as Error).message}`, 'serve the wasm files with the page (see runtimes/browser/assets.ts)');
  }
  if (!res.ok) throw new HciError('asset_unavailable', `cannot fetch ${what} from ${url}: HTTP ${res.status}`, 'serve the wasm files with the page (see runtimes/browser/assets.ts)');
  return new Uint8Array(await res.arrayBuffer());
}

/**
 * Tree-sitter's runtime and grammars fetched by URL (each at most once per Worker, when a file of its
 * language is first parsed; `onFetched` hears of each download). A grammar-table
 * entry without a URL is refused here, at start, rather than letting its languages quietly fall back
 * to line windows.
 */
export function createUrlGrammarSource(urls: WasmUrls, onFetched?: (f: { what: string; url: string; bytes: number; ms: number }) => void): GrammarSource | undefined {
  if (!urls.treeSitter) return undefined;
  const missing = GRAMMAR_IDS.filter((id) => !urls.grammars?.[id]);
  if (missing.length) {
    throw new HciError('grammar_missing', `no URL for the ${missing.join(', ')} grammar${missing.length > 1 ? 's' : ''}`, 'give WasmUrls.grammars a URL for every grammar in core/languages/grammars.ts (with Vite, hciVitePlugin() and defaultWasmUrls do)');
  }
  const cache = new Map<string, Promise<Uint8Array>>();
  const get = (url: string, what: string) => {
    let p = cache.get(url);
    if (!p) {
      const t0 = performance.now();
      p = fetchBytes(url, what);
      if (onFetched) void p.then((b) => onFetched({ what, url, bytes: b.byteLength, ms: Math.round(performance.now() - t0) }), () => {});
      cache.set(url, p);
      p.catch(() => cache.delete(url));
    }
    return p;
  };
  return {
    runtime: () => get(urls.treeSitter!, 'tree-sitter.wasm'),
    grammar: (name) => get(urls.grammars![name], `the ${name} grammar`),
  };
}

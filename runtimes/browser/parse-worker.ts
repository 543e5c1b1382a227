// The nested Worker behind parse-pool.ts: its own Chunker over the same grammar URLs as the hci
// Worker, extracting the outline of each file it is sent, one at a time, in arrival order (the
// same extractFromBytes as Node's parse worker, so chunks are identical whichever thread parsed),
// and deflating each file's text for its index blob, which the hci Worker would otherwise do — or,
// configured with row settings, making whole the rows of the files a request asks for (core/index/
// ready-rows.ts, with the hci Worker's codec, fflate), which that Worker then only writes.
// It loads tree-sitter as soon as it starts, and the grammars of the languages its pool names at once.
// Owns nothing else: which files come here, and what happens when this worker fails, is the pool's
// and the indexer's.
import { Chunker } from '../../core/chunk/chunker.ts';
import { TreeSitterHost } from '../../core/chunk/treesitter.ts';
import { extractFromBytes } from '../../core/index/prepare.ts';
import { fflateCodec } from '../../core/index/fflate-codec.ts';
import { readyRows, transferables, type RowSettings } from '../../core/index/ready-rows.ts';
import { createUrlGrammarSource } from './loaders.ts';
import type { ParseWorkerConfig, ParseWorkerInit, ParseWorkerReply, ParseWorkerRequest } from './parse-pool.ts';

const scope = globalThis as unknown as { onmessage: ((ev: MessageEvent<ParseWorkerInit | ParseWorkerConfig | ParseWorkerRequest>) => void) | null; postMessage(m: ParseWorkerReply, transfer?: Transferable[]): void };
let chunker: Chunker | null = null;
let probeBytes = 0;
let rows: RowSettings | undefined;
let queue: Promise<void> = Promise.resolve();

scope.onmessage = (ev) => {
  const m = ev.data;
  if (m.type === 'init') {
    const grammars = createUrlGrammarSource(m.wasm);
    if (grammars) chunker = new Chunker(new TreeSitterHost(grammars));
    void chunker?.preload([]); // the runtime, before any file or grammar is asked for
    return;
  }
  if (m.type === 'config') {
    probeBytes = m.binaryProbeBytes;
    rows = m.rows;
    void chunker?.preload(m.langs);
    return;
  }
  queue = queue.then(async () => {
    let reply: ParseWorkerReply;
    const transfer: Transferable[] = [];
    try {
      if (!chunker) throw new Error('parse worker: no grammars');
      if (rows && m.rows) {
        const ready = await readyRows(m.bytes, m, rows, chunker, fflateCodec);
        transfer.push(...transferables(ready));
        reply = { id: m.id, result: { ready, extracted: '' } };
      } else {
        // The text deflated here too (the hci Worker's codec, fflate): that Worker is the busier thread of a cold pass.
        const result = await extractFromBytes(m.bytes, m, probeBytes, chunker, { codec: fflateCodec });
        if (result.deflatedText) transfer.push(result.deflatedText.deflated.buffer as ArrayBuffer);
        reply = { id: m.id, result };
      }
    } catch (e) {
      reply = { id: m.id, error: e instanceof Error ? e.message : String(e) };
    }
    scope.postMessage(reply, transfer);
  });
};

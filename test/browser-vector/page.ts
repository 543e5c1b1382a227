// The vector parity page: runs the shared fingerprints (learned training, embedding, KNN through the
// WASM kernel and its JS twin; the shipped code model fetched from the URL hciVitePlugin gives) on
// a corpus fetched from the test server, in a Worker — where the semantic channel runs in the
// browser runtime — and in the page itself.
import { pretrainedFingerprint, vectorFingerprint, type VectorCorpus } from '../helpers/vector-fingerprint.ts';
import { fetchBytes } from '../../runtimes/browser/loaders.ts';
import urls from 'virtual:hci-tree-sitter-urls';

async function corpusAt(url: string): Promise<VectorCorpus> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`GET ${url} → ${res.status}`);
  return (await res.json()) as VectorCorpus;
}

const worker = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });

(window as unknown as Record<string, unknown>).vectorFingerprint = async (url: string) => {
  const corpus = await corpusAt(url);
  const page = { learned: await vectorFingerprint(corpus), pretrained: await pretrainedFingerprint(() => fetchBytes(urls.codeModel, 'the code model'), corpus) };
  const inWorker = await new Promise((resolve, reject) => {
    worker.onmessage = (e) => resolve(e.data);
    worker.onerror = (e) => reject(new Error(e.message));
    worker.postMessage(new URL(url, location.href).href);
  });
  return { page, worker: inWorker };
};

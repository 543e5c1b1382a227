// Worker half of the vector parity page: the same fingerprints (the code model fetched from the URL hciVitePlugin gives), off the main thread.
import { pretrainedFingerprint, vectorFingerprint, type VectorCorpus } from '../helpers/vector-fingerprint.ts';
import { fetchBytes } from '../../runtimes/browser/loaders.ts';
import urls from 'virtual:hci-tree-sitter-urls';

self.onmessage = async (e: MessageEvent<string>) => {
  const res = await fetch(e.data);
  const corpus = (await res.json()) as VectorCorpus;
  (self as unknown as Worker).postMessage({ learned: await vectorFingerprint(corpus), pretrained: await pretrainedFingerprint(() => fetchBytes(urls.codeModel, 'the code model'), corpus) });
};

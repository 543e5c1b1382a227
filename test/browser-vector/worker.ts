// Worker half of the vector parity page: the same fingerprint, off the main thread.
import { vectorFingerprint, type VectorCorpus } from '../helpers/vector-fingerprint.ts';

self.onmessage = async (e: MessageEvent<string>) => {
  const res = await fetch(e.data);
  const corpus = (await res.json()) as VectorCorpus;
  (self as unknown as Worker).postMessage(await vectorFingerprint(corpus));
};

// The default codec of the index's per-file blobs: fflate (pure JS), for every runtime that has no
// native zlib to pass in (the browser; Node passes node:zlib). A module of its own so a host with its
// own codec never loads fflate (its Node build requires worker_threads and builds tables at load).
import { deflateSync, inflateSync } from 'fflate';
import type { DeflateCodec } from './file-data.ts';

export const fflateCodec: DeflateCodec = {
  deflateRaw: (data, dictionary) => deflateSync(data, { level: 6, dictionary }),
  inflateRaw: (data, dictionary, size) => inflateSync(data, size ? { dictionary, out: new Uint8Array(size) } : { dictionary }),
};

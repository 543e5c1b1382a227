// What the semantic channel's providers get from Node: fetch (http), the environment (the http
// provider's API-key variable, read at each call and never kept), and for `onnx` the optional
// onnxruntime-web package (imported only when that provider is configured) and the model folder's
// files. Owns only this wiring.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { VectorHost } from '../../core/vector/semantic.ts';
import type { OrtLike } from '../../core/vector/onnx/provider.ts';

/** The module name in a variable: bundlers and type checkers leave an optional peer alone. */
const ORT = 'onnxruntime-web';

export const nodeVectorHost: VectorHost = {
  fetch: (input, init) => fetch(input, init),
  env: (name) => process.env[name],
  onnx: {
    loadRuntime: async () => (await import(ORT)) as unknown as OrtLike,
    resolve: (root, p) => path.resolve(root, p),
    readFile: async (p) => new Uint8Array(await fs.readFile(p)),
    listDir: (p) => fs.readdir(p),
  },
};

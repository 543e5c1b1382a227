// What the semantic channel's providers get from Node: fetch (http), the environment (the http
// provider's API-key variable, read at each call and never kept), for `onnx` the optional
// onnxruntime-web package (imported only when that provider is configured) and the model folder's
// files, for `model2vec` a model folder's files, and for `pretrained` the code model shipped in the
// package (code-model.ts says where). Owns only this wiring.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { VectorHost } from '../../core/vector/semantic.ts';
import type { OrtLike } from '../../core/vector/onnx/provider.ts';
import { codeModelPath } from './code-model.ts';

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
  codeModel: async () => new Uint8Array(await fs.readFile(codeModelPath())),
  files: {
    resolve: (root, p) => path.resolve(root, p),
    readFile: async (p) => new Uint8Array(await fs.readFile(p)),
  },
};

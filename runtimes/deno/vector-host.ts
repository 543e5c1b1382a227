// What the semantic channel's providers get from Deno: fetch (http; needs --allow-net for the
// endpoint), the environment (the API-key variable; --allow-env=<NAME>), for `onnx` the optional
// `npm:onnxruntime-web` resolved from the hci folder's node_modules (imported only when that
// provider is configured) and the model folder's files (--allow-read on it), for `model2vec` a
// model folder's files, and for `pretrained` the code model in hci's own package (models/, read
// like the grammars: a refused read is `permission_needed` naming it). Owns only this wiring.
import type { VectorHost } from '../../core/vector/semantic.ts';
import type { OrtLike } from '../../core/vector/onnx/provider.ts';
import { deno, readInstalledFile } from './deno-api.ts';
import { absolutePath } from './deno-storage.ts';

/** The module name in a variable: the type checker leaves an optional peer alone. */
const ORT = 'onnxruntime-web';

export const denoVectorHost: VectorHost = {
  fetch: (input, init) => fetch(input, init),
  env: (name) => {
    try {
      return deno().env.get(name);
    } catch {
      return undefined; // no --allow-env for it: the provider says the key is missing
    }
  },
  onnx: {
    loadRuntime: async () => (await import(ORT)) as unknown as OrtLike,
    resolve: (root, p) => (p.startsWith('/') || /^[a-zA-Z]:/.test(p) ? p : absolutePath(`${root}/${p}`)),
    readFile: (p) => deno().readFile(p),
    listDir: async (p) => {
      const out: string[] = [];
      for await (const e of deno().readDir(p)) out.push(e.name);
      return out;
    },
  },
  codeModel: () => readInstalledFile(CODE_MODEL_URL, 'the code model (models/code-model.bin)'),
  files: {
    resolve: (root, p) => (p.startsWith('/') || /^[a-zA-Z]:/.test(p) ? p : absolutePath(`${root}/${p}`)),
    readFile: (p) => deno().readFile(p),
  },
};

/** models/code-model.bin: two folders up from the sources (runtimes/deno/), three from the build (dist/runtimes/deno/). */
const CODE_MODEL_URL = new URL(import.meta.url.endsWith('.js') ? '../../../models/code-model.bin' : '../../models/code-model.bin', import.meta.url);

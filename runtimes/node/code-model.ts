// Where hci's pretrained code model (models/code-model.bin) lies for Node, Deno and the Vite plugin:
// the package's models/ folder, found from this module's own URL — two folders up when it runs from
// the sources (runtimes/node/), three from the build (dist/runtimes/node/). Owns only that path.
import { fileURLToPath } from 'node:url';

/** The model file's URL (this module compiled sits one folder deeper, in dist/). */
export const CODE_MODEL_URL = new URL(import.meta.url.endsWith('.js') ? '../../../models/code-model.bin' : '../../models/code-model.bin', import.meta.url);

export function codeModelPath(): string {
  return fileURLToPath(CODE_MODEL_URL);
}

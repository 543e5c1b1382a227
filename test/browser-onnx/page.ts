// The ONNX fixture page: loads onnxruntime-web from the test server (its dist files, as a page
// that ships it would), reads the generated model folder over fetch, and runs onnxFingerprint.
import type { OnnxHost, OrtLike } from '../../core/vector/onnx/provider.ts';
import { onnxFingerprint } from '../helpers/onnx-fingerprint.ts';

(window as unknown as Record<string, unknown>).onnxFingerprint = async (ortBase: string, modelBase: string) => {
  const host: OnnxHost = {
    loadRuntime: async () => {
      const ort = (await import(/* @vite-ignore */ `${ortBase}ort.wasm.min.mjs`)) as OrtLike;
      ort.env!.wasm!.wasmPaths = ortBase;
      return ort;
    },
    resolve: (_root, p) => p,
    readFile: async (p) => {
      const res = await fetch(p);
      if (!res.ok) throw new Error(`GET ${p} → ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    },
    listDir: async () => ['model.onnx'],
  };
  return onnxFingerprint(host, modelBase);
};

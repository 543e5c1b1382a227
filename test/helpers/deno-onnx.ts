// Deno side of the ONNX fixture test: runs onnxFingerprint with Deno's own vector host (npm:
// onnxruntime-web from the hci folder's node_modules, the model folder read through Deno) and
// prints the result as JSON. Needs --allow-read of the model folder and node_modules.
import { denoVectorHost } from '../../runtimes/deno/vector-host.ts';
import { onnxFingerprint } from './onnx-fingerprint.ts';

declare const Deno: { args: string[] };

console.log(JSON.stringify(await onnxFingerprint(denoVectorHost.onnx!, Deno.args[0])));

// A Node workspace whose runtime hands over other code-model bytes than the package's
// models/code-model.bin (a candidate model for the bench scripts: reembed.ts builds index copies with
// it, settings-ab.ts --model answers their queries with it). Owns only that wiring.
import * as fs from 'node:fs';
import { HciWorkspace, type OpenOptions } from '../../core/workspace.ts';
import { createNodeGrammarSource, createNodeIndexStorage, createNodeWorkspaceFs, nodeVectorHost, openWorkspace, zlibCodec } from '../../runtimes/node/index.ts';

/** openWorkspace(root, opts), with the model file's bytes as the code model when one is named. */
export async function openWithModel(root: string, modelFile: string | undefined, opts: OpenOptions = {}): Promise<HciWorkspace> {
  if (!modelFile) return openWorkspace(root, opts);
  const bytes = new Uint8Array(fs.readFileSync(modelFile));
  return HciWorkspace.open({ fs: createNodeWorkspaceFs(root), storage: createNodeIndexStorage(root), grammars: createNodeGrammarSource(), deflate: zlibCodec, vectors: { ...nodeVectorHost, codeModel: async () => bytes } }, opts);
}

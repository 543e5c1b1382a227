// Small code models for the pretrained and combined providers' tests: learned models trained here
// from the sample workspace's text files (the shipped model's own tests are code-model*.test.ts), and
// a Node workspace whose runtime hands over those bytes as its code model.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { HciWorkspace } from '../../core/workspace.ts';
import { LearnedProvider } from '../../core/vector/learned/provider.ts';
import { createNodeGrammarSource, createNodeIndexStorage, createNodeWorkspaceFs, nodeVectorHost, zlibCodec } from '../../runtimes/node/index.ts';
import { REPO } from './browser.ts';

/** Every text file of the sample workspace, as training texts. */
export function sampleTexts(): string[] {
  const root = path.join(REPO, 'test/sample-workspace');
  return fs.readdirSync(root, { recursive: true }).map(String).filter((f) => /\.(cs|razor|axaml|md|json)$/.test(f)).sort().map((f) => `${f}\n${fs.readFileSync(path.join(root, f), 'utf8')}`);
}

/** A model's bytes, trained from the sample workspace. */
export function trainModel(seed: number, dims: number): Uint8Array {
  return new LearnedProvider({ dims, seed }).train(sampleTexts()).model.toBytes();
}

/** A Node workspace whose runtime reads these bytes as the shipped code model. */
export async function openWithCodeModel(root: string, codeModel: () => Promise<Uint8Array>): Promise<HciWorkspace> {
  return HciWorkspace.open({ fs: createNodeWorkspaceFs(root), storage: createNodeIndexStorage(root), grammars: createNodeGrammarSource(), deflate: zlibCodec, vectors: { ...nodeVectorHost, codeModel } });
}

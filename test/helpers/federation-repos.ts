// Two small repositories whose own BM25 statistics mis-order a query's hits (test/federation.test.ts,
// test/multi-root.test.ts): "gizmo" is in alpha's every note (its own IDF is near zero) but rare across
// both, so only statistics merged over the two indexes put alpha's chunk first, as one index of the union does.
import type { WorkspaceFiles } from './tmp-workspace.ts';

const other = (n: number) => `# Other ${n}\n\nPlain words about wheels and axles, page ${n}.\n`;

export const ALPHA: WorkspaceFiles = {
  'docs/notes.md': '# Notes\n\nThe gizmo turns. A gizmo spins. Every gizmo hums.\n',
  'docs/other-1.md': other(1),
};

export const BETA: WorkspaceFiles = {
  'docs/notes.md': '# Notes\n\nThe gizmo turns. Wheels spin. Every axle hums.\n',
  ...Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`docs/other-${i + 1}.md`, other(i + 1)])),
};

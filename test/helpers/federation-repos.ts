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

// A word in more than half of the union's chunks (FTS5's IDF clamped to 1e-6: every keyword score of
// it ~1e-6): "sprocket" (porter: sprockets → sprocket) is in every path of delta, under src/Sprockets/,
// and in one note of gamma. One index of the union ranks delta's declarations of it first; a merge
// that compared scores rounded for display saw ties at 0 and listed the first repository's hits first.
export const GAMMA: WorkspaceFiles = {
  'docs/notes.md': '# Notes\n\nA sprocket is mentioned here once, among plain words about wheels.\n',
  'docs/other-1.md': other(1),
};

export const DELTA: WorkspaceFiles = {
  'src/Sprockets/Sprocket.cs': 'namespace Shop.Sprockets;\n\npublic class Sprocket\n{\n    public int Teeth { get; set; }\n}\n',
  'src/Sprockets/SprocketFactory.cs': 'namespace Shop.Sprockets;\n\npublic class SprocketFactory\n{\n    public Sprocket Create(int teeth) => new Sprocket { Teeth = teeth };\n}\n',
  ...Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`src/Sprockets/Part${i + 1}.cs`, `namespace Shop.Sprockets;\n\npublic class Part${i + 1}\n{\n    public int Size { get; set; } = ${i + 1};\n}\n`])),
};

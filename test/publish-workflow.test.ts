// The team flow of docs/publish.md, tested: docs/examples/publish-index.yml (a GitHub Actions workflow)
// is a workflow that checks out, installs hci, runs hci and publishes site/ as an artifact and on
// GitHub Pages; its `hci …` steps, run as written by the built CLI in a copy of the sample workspace,
// leave a site/ that a real HTTP range server on 127.0.0.1 serves and `hci search --index <url>`
// answers exactly as the local index does.
// @lane cli
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { copyWorkspace } from './helpers/tmp-workspace.ts';
import { startRangeServer, type RangeServer } from './helpers/range-server.ts';
import { ensureBuilt, REPO, runCli } from './helpers/hci-process.ts';

const WORKFLOW = path.join(REPO, 'docs/examples/publish-index.yml');
const sample = path.resolve(import.meta.dirname, 'sample-workspace');

/** The `- run: …` and `- uses: …` steps of the workflow, in order (one-line steps, as the example writes them). */
function steps(text: string): { kind: 'run' | 'uses'; value: string }[] {
  return [...text.matchAll(/^\s+-\s+(?:id:\s*\S+\s*\n\s+)?(run|uses):\s*(.+?)\s*$/gm)].map((m) => ({ kind: m[1] as 'run' | 'uses', value: m[2] }));
}

describe('docs/examples/publish-index.yml (build, pack and publish an index in CI)', () => {
  let root: string;
  let server: RangeServer | undefined;
  const text = fs.readFileSync(WORKFLOW, 'utf8');

  beforeAll(() => {
    ensureBuilt();
    root = copyWorkspace(sample, 'hci-publish-flow-');
  });

  afterAll(async () => {
    await server?.close();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('is a workflow that checks out, installs hci and publishes site/ as an artifact and on Pages', () => {
    expect(text).toMatch(/^on:\n\s+push:/m);
    expect(text).toMatch(/^permissions:\n(?:\s+.+\n)*\s+pages: write\n(?:\s+.+\n)*?\s+id-token: write/m);
    const uses = steps(text).filter((s) => s.kind === 'uses').map((s) => s.value.replace(/@.*/, ''));
    expect(uses).toEqual(['actions/checkout', 'actions/setup-node', 'actions/upload-artifact', 'actions/upload-pages-artifact', 'actions/deploy-pages']);
    expect(text.match(/path: site\//g)).toHaveLength(2);
    expect(text, 'says how the link is searched and opened in the explorer').toMatch(/--index https:\/\/<owner>\.github\.io\/<repo>\/index\.sqlite[\s\S]*\?index=https:\/\/<owner>\.github\.io/);
  });

  it("its hci steps, run as written, leave a site/ that searches over HTTP as the local index does", async () => {
    const hciSteps = steps(text).filter((s) => s.kind === 'run' && s.value.startsWith('hci ')).map((s) => s.value.slice('hci '.length).split(/\s+/));
    expect(hciSteps.map((a) => a[0])).toEqual(['index', 'pack']);
    for (const args of hciSteps) {
      // Run where the workflow runs it: in the checkout (cwd), as the built CLI.
      const r = await runCli(args, {}, root);
      expect(r.code, `hci ${args.join(' ')}: ${r.stderr}`).toBe(0);
    }
    expect(fs.existsSync(path.join(root, 'site/index.sqlite'))).toBe(true);
    const manifest = JSON.parse(fs.readFileSync(path.join(root, 'site/index.sqlite.json'), 'utf8'));
    // Paged at the default size, 8 KB (core/index/pack.ts DEFAULT_PACK_PAGE_SIZE: bench/results/remote-Avalonia-fed12.md).
    expect(manifest).toMatchObject({ hci_pack: 1, file: 'index.sqlite', page_size: 8192 });
    server = await startRangeServer(path.join(root, 'site'));
    for (const q of ['CatalogService', 'order total discount']) {
      const local = JSON.parse((await runCli(['search', q, '--root', root, '--json'])).stdout);
      const remote = JSON.parse((await runCli(['search', q, '--index', server.url('index.sqlite'), '--json'])).stdout);
      expect(remote.hits.length).toBeGreaterThan(0);
      expect(remote.hits.map((h: { hit_id: string }) => h.hit_id)).toEqual(local.hits.map((h: { hit_id: string }) => h.hit_id));
    }
  });
});

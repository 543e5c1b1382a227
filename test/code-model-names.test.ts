// The name pairs of the code model's experiments (bench/model/names.ts), on a real git repository
// in a temp folder: a commit's subject is paired with the heads of the declarations its hunks fall
// in (the member and its type, at that commit) and not with the changed lines; a README section's
// prose (its code spans taken out) is paired with the code of the declaration a code span names;
// the outline reads C# and TypeScript heads and leaves calls and statements out.
// @lane cli
import { describe, it, expect, afterAll } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { enclosing, namePairsOf, outline, patchHunks, prose, spanNames } from '../bench/model/names.ts';

const tmp: string[] = [];
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

function git(dir: string, ...args: string[]): string {
  const r = spawnSync('git', ['-C', dir, ...args], {
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t', GIT_CONFIG_NOSYSTEM: '1', HOME: dir },
  });
  if (r.status !== 0) throw new Error(r.stderr.toString());
  return r.stdout.toString().trim();
}

const STORE = (body: string) => `namespace App.Settings
{
    /// <summary>Keeps the choices.</summary>
    public sealed class SettingsStore
    {
        private readonly string _file;

        public SettingsStore(string file) => _file = file;

        public void Save(WindowPlacement placement)
        {
${body}
        }

        public WindowPlacement Load()
        {
            var text = System.IO.File.ReadAllText(_file);
            return WindowPlacement.Parse(text);
        }
    }
}
`;

describe('name pairs', () => {
  it('pairs a commit subject with the declarations it changed, and a docs section with the code it names', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'hci-names-'));
    tmp.push(dir);
    git(dir, 'init', '-q');
    fs.mkdirSync(path.join(dir, 'src'));
    fs.writeFileSync(path.join(dir, 'src/SettingsStore.cs'), STORE('            System.IO.File.WriteAllText(_file, placement.ToString());'));
    fs.writeFileSync(path.join(dir, 'README.md'), '# App\n\n## Remembering where windows were\n\nWhen the app closes, `SettingsStore` persists the size and position of every window to disk, so the next start restores them.\n');
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'first version of the settings');
    fs.writeFileSync(path.join(dir, 'src/SettingsStore.cs'), STORE('            var tmp = _file + ".tmp";\n            System.IO.File.WriteAllText(tmp, placement.ToString());\n            System.IO.File.Move(tmp, _file, true);'));
    git(dir, 'commit', '-q', '-am', 'fix: keep the window size when the app crashes mid-write (#12)');
    const head = git(dir, 'rev-parse', 'HEAD');

    const x = namePairsOf(path.join(dir, '.git'), 'test/one', head, 'all');
    const byCommit = new Map(x.commitNamePairs);
    const names = byCommit.get('keep the window size when the app crashes mid-write');
    expect(names).toBeDefined();
    expect(names!.split('\n')).toEqual(['src/SettingsStore.cs', 'public sealed class SettingsStore', 'public void Save(WindowPlacement placement)']);
    expect(names).not.toContain('Move');

    expect(x.sectionPairs).toHaveLength(1);
    const [q, code] = x.sectionPairs[0];
    expect(q).toBe('App / Remembering where windows were When the app closes, persists the size and position of every window to disk, so the next start restores them.');
    expect(code.split('\n')[0]).toBe('src/SettingsStore.cs');
    expect(code).toContain('public sealed class SettingsStore');
  });

  it('reads declaration heads of C# and TypeScript, not calls or statements', () => {
    const cs = outline(STORE('            new Rect(0, 1, 2, 3);\n            return;'), '.cs').map((d) => d.name);
    expect(cs).toEqual(['SettingsStore', '_file', 'SettingsStore', 'Save', 'Load']);
    const ts = outline(
      [
        'import { type VNode, render } from "vue";',
        'export interface Options { depth: number }',
        'export function walk(node: VNode) {',
        '  render(h("x", { a: 1 }), container)',
        '  const node2 = (node as any).children[0]',
        '}',
        'export const visit = (n: VNode) => n;',
        'class Walker extends Base {',
        '  private step(n: VNode): void {',
        '  }',
        '}',
      ].join('\n'),
      '.ts',
    ).map((d) => d.name);
    expect(ts).toEqual(['Options', 'walk', 'visit', 'Walker', 'step']);
    const decls = outline(STORE('            return;'), '.cs');
    expect(enclosing(decls, 11).map((d) => d.name)).toEqual(['SettingsStore', 'Save']);
  });

  it('reads hunks of a patch, a pure removal at the line before the gap', () => {
    const oid = 'a'.repeat(40);
    const patch = `diff --git a/x.ts b/x.ts\nindex ${'b'.repeat(40)}..${oid} 100644\n--- a/x.ts\n+++ b/x.ts\n@@ -3,2 +3,0 @@ f\n-a\n-b\n@@ -9 +8,2 @@\n+c\n+d\ndiff --git a/y.ts b/y.ts\ndeleted file mode 100644\nindex ${'c'.repeat(40)}..${'0'.repeat(40)}\n--- a/y.ts\n+++ /dev/null\n@@ -1 +0,0 @@\n-z\n`;
    expect(patchHunks(patch)).toEqual([{ path: 'x.ts', oid, starts: [3, 7] }]);
  });

  it('takes code spans out of the prose and reads the names they hold', () => {
    const body = 'Call `Store.Save()` or `<MudButton>` to keep it.\n\n```cs\nvar NotThis = 1;\n```\nSee [the docs](https://x.y/z).';
    expect(spanNames(body)).toEqual(['Store', 'Save', 'MudButton']);
    expect(prose('Saving', body)).toBe('Saving Call or to keep it. See the docs.');
  });
});

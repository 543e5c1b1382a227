// Outlines in the index: `outline` answers a file's symbol tree, a member key resolves to the
// member's current lines — the same key after lines are inserted above it, with the range shifted —
// and a file:line resolves to the innermost member there.
// @lane unit
import { describe, it, expect } from 'vitest';
import * as fs from 'node:fs';
import { openWorkspace, createNodeIndexStorage, loadEngine } from '../runtimes/node/index.ts';
import { IndexStore } from '../core/index/store.ts';
import { definitionsNamed } from '../core/search/definitions.ts';
import { withTmpWorkspace, tmpDir } from './helpers/tmp-workspace.ts';

const source = `namespace Shop.Ordering;

public class OrderService
{
    public void Place(int id) { }

    public void Place(string code)
    {
        var trimmed = code.Trim();
    }
}
`;

describe('outline and member keys in the index', () => {
  it('finds the definitions of a name more files mention than one lookup reads: files naming it in a path or symbol first', async () => {
    // Five notes say "tell" before (in path order) the two files that define Tell: a lookup reading 3
    // files in path order read only notes and answered that nothing defines it.
    const members = Array.from({ length: 12 }, (_, i) => `    public int Count${i}\n    {\n        get { return ${i}; }\n    }`).join('\n\n');
    const files: Record<string, string> = {
      // A class of many members: Tell is a chunk of its own, so the chunk's symbol names it.
      'src/zz/Actor.cs': `namespace Actors;\n\npublic class Actor\n{\n    public void Tell(object message) { }\n\n${members}\n}\n`,
      // A small file is one chunk (its symbol is the namespace), but its path names the word.
      'src/zz/ICanTell.cs': 'namespace Actors;\n\npublic interface ICanTell\n{\n    void Tell(object message);\n}\n',
    };
    for (let i = 0; i < 5; i++) files[`docs/n${i}.md`] = `Tell the actor number ${i}.\n`;
    await withTmpWorkspace(files, async (ws) => {
      const w = await openWorkspace(ws.root);
      try {
        await w.index();
      } finally {
        w.close();
      }
      const store = await IndexStore.open(createNodeIndexStorage(ws.root), await loadEngine(), { create: false, lockTimeoutMs: 2000 });
      try {
        const found = await store.read((db) => definitionsNamed(db, 'Tell', store.codec, 3));
        expect(found.locations.map((l) => [l.path, l.kind, l.start_line])).toEqual([['src/zz/Actor.cs', 'method', 5], ['src/zz/ICanTell.cs', 'method', 5]]);
        expect(found.unread).toBe(4);
        const all = await store.read((db) => definitionsNamed(db, 'Tell', store.codec));
        expect(all).toEqual({ locations: found.locations, unread: 0 });
      } finally {
        store.close();
      }
    });
  });

  it('resolves keys to current ranges, before and after lines move', async () => {
    await withTmpWorkspace({ 'src/OrderService.cs': source, 'docs/guide.md': '# Guide\n\n## Ordering\n\ntext\n' }, async (ws) => {
      const w = await openWorkspace(ws.root);
      try {
        await w.index();
        const o = await w.outline('src/OrderService.cs');
        expect(o.status).toBe('ok');
        const cls = o.symbols[0].children![0];
        expect(cls).toMatchObject({ kind: 'class', name: 'OrderService', member_key: 'Shop.Ordering.OrderService', start_line: 3, end_line: 11 });
        expect(cls.children!.map((c) => [c.name, c.member_key, c.start_line, c.end_line])).toEqual([
          ['Place', 'Shop.Ordering.OrderService.Place(int)', 5, 5],
          ['Place', 'Shop.Ordering.OrderService.Place(string)', 7, 10],
        ]);
        const key = 'Shop.Ordering.OrderService.Place(string)';
        expect((await w.resolve({ member_key: key })).locations).toEqual([
          { path: 'src/OrderService.cs', kind: 'method', name: 'Place', member_key: key, start_line: 7, end_line: 10 },
        ]);
        expect((await w.resolve({ path: 'src/OrderService.cs', line: 9 })).locations[0]?.member_key).toBe(key);

        fs.writeFileSync(ws.abs('src/OrderService.cs'), `// header comment\n// added later\n\n${source}`);
        await w.index();
        const moved = await w.resolve({ member_key: key });
        expect(moved.locations.map((l) => [l.start_line, l.end_line])).toEqual([[10, 13]]);
        expect((await w.resolve({ path: 'src/OrderService.cs', line: 12 })).locations[0]?.member_key).toBe(key);

        const gone = await w.resolve({ member_key: 'Shop.Ordering.OrderService.Cancel(int)' });
        expect(gone.status).toBe('empty');
        expect(gone.hint).toMatch(/renamed or removed/);
        expect((await w.outline('docs/guide.md')).symbols[0]).toMatchObject({ kind: 'section', name: 'Guide' });
        expect((await w.outline('../etc/passwd')).error?.code).toBe('path_outside_workspace');
        expect((await w.outline('src/Missing.cs')).error?.code).toBe('not_indexed');
      } finally {
        w.close();
      }
    });
  });

  it('resolves keys of partial types, constructors and nested types, and pairs a view with a code-behind by x:Class', async () => {
    await withTmpWorkspace(
      {
        'src/A.cs': 'namespace Shop;\npublic partial class Cart\n{\n    public Cart(int size) { }\n    public class Line { public void Clear() { } }\n}\n',
        'src/B.cs': 'namespace Shop;\npublic partial class Cart\n{\n    public void Empty() { }\n}\n',
        // The view and its code-behind share no file name: only x:Class ties them.
        'ui/Screens/OrdersPage.axaml': '<UserControl xmlns="https://github.com/avaloniaui" xmlns:x="http://schemas.microsoft.com/winfx/2006/xaml" x:Class="Shop.Ui.OrdersScreen">\n  <TextBlock x:Name="Title" />\n</UserControl>\n',
        'ui/Code/OrdersScreenLogic.cs': 'namespace Shop.Ui;\npublic partial class OrdersScreen\n{\n    public void Refresh() { }\n}\n',
      },
      async (ws) => {
        const w = await openWorkspace(ws.root);
        try {
          await w.index();
          const paths = async (member_key: string) => (await w.resolve({ member_key })).locations.map((l) => l.path);
          expect(await paths('Shop.Cart')).toEqual(['src/A.cs', 'src/B.cs']);
          expect(await paths('Shop.Cart.#ctor(int)')).toEqual(['src/A.cs']);
          expect(await paths('Shop.Cart+Line.Clear()')).toEqual(['src/A.cs']);
          expect(await paths('Shop.Cart.Empty()')).toEqual(['src/B.cs']);
          const view = (await w.search({ query: 'Title', paths: ['ui/'] })).hits.find((h) => h.path.endsWith('.axaml'))!;
          expect((await w.explain(view.hit_id)).explanation?.paired_files).toEqual([{ path: 'ui/Code/OrdersScreenLogic.cs', relation: 'code_behind' }]);
          const code = (await w.search({ query: 'Refresh' })).hits.find((h) => h.path === 'ui/Code/OrdersScreenLogic.cs')!;
          expect((await w.explain(code.hit_id)).explanation?.paired_files).toEqual([{ path: 'ui/Screens/OrdersPage.axaml', relation: 'markup' }]);
        } finally {
          w.close();
        }
      },
    );
  });
});

describe('paths that outline and the path options take', () => {
  it('say nothing about what exists where a workspace symlink leads outside', async () => {
    const outside = tmpDir('hci-outline-outside-');
    fs.writeFileSync(`${outside}/Exists.cs`, source);
    try {
      await withTmpWorkspace({ 'src/OrderService.cs': source, 'src/NotIndexed.txt': 'plain\n' }, async (ws) => {
        fs.symlinkSync(outside, ws.abs('out'));
        const w = await openWorkspace(ws.root);
        try {
          await w.index();
          const there = await w.outline('out/Exists.cs');
          const missing = await w.outline('out/Missing.cs');
          expect(there.error?.code).toBe('not_indexed');
          const shape = (o: typeof there) => ({ ...o, path: '', error: { ...o.error, message: o.error?.message.replace(o.path, '') } });
          expect(shape(there)).toEqual(shape(missing));
          expect(there.hint).toBe('no such file in the workspace');
          // Inside the workspace the answer still tells a file that exists from one that does not.
          expect((await w.outline('src/NotIndexed.txt')).hint).toMatch(/exists but is not indexed/);
          expect((await w.outline('src/Nothing.cs')).hint).toBe('no such file in the workspace');
        } finally {
          w.close();
        }
      });
    } finally {
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });

  it('an empty outline says whether the file or its language has no structure', async () => {
    await withTmpWorkspace({ 'src/plain.js': '// nothing but statements\nconsole.log(1)\nconsole.log(2)\n', 'notes/todo.txt': 'buy milk\n', '.hci/settings.toml': 'include_extensions = [".js", ".txt"]\n' }, async (ws) => {
      const w = await openWorkspace(ws.root);
      try {
        await w.index();
        expect((await w.outline('src/plain.js')).hint).toBe('no symbols found in this javascript file: it is indexed as line windows');
        const txt = await w.outline('notes/todo.txt');
        expect(txt.status).toBe('ok');
        expect(txt.hint).toBe(`no outline for ${txt.lang} files (they are indexed as line windows)`);
      } finally {
        w.close();
      }
    });
  });

  it('address a file whose name holds a backslash (a legal name character on POSIX)', async () => {
    const odd = 'src/Odd\\Name.cs';
    await withTmpWorkspace({ [odd]: source.replace('OrderService', 'OddService') }, async (ws) => {
      const w = await openWorkspace(ws.root);
      try {
        await w.index();
        const o = await w.outline(odd);
        expect(o.status, JSON.stringify(o)).toBe('ok');
        expect(o.path).toBe(odd);
        expect(o.symbols[0].children![0].name).toBe('OddService');
        expect((await w.resolve({ path: odd, line: 9 })).locations[0]?.path).toBe(odd);
        // Search path filters, in the request and in the query.
        expect((await w.search({ query: 'OddService', paths: [odd] })).hits.map((h) => h.path)).toEqual([odd]);
        expect((await w.search({ query: 'OddService', paths: ['src/Odd\\'] })).hits.map((h) => h.path)).toEqual([odd]);
        expect((await w.search({ query: 'OddService', exclude_paths: [odd] })).hits).toEqual([]);
        // An indexing pass over that path only.
        fs.writeFileSync(ws.abs(odd), source.replace('OrderService', 'OddServiceRenamed'));
        const s = await w.index({ paths: [odd] });
        expect([s.files_scanned, s.files_indexed]).toEqual([1, 1]);
        expect((await w.search({ query: 'OddServiceRenamed' })).hits.map((h) => h.path)).toEqual([odd]);
      } finally {
        w.close();
      }
    });
  });
});

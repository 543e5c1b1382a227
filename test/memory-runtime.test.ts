// The core alone, with no file system: files from memory, the index in SQLite's memdb. This is the
// seam the browser runtime builds on (uploaded files, unzipped archives).
// @lane unit
import { describe, it, expect } from 'vitest';
import { HciWorkspace } from '../core/workspace.ts';
import { createMemoryWorkspaceFs } from '../core/memory-fs.ts';
import { createMemoryIndexStorage } from '../core/index/memory-storage.ts';

describe('in-memory workspace and index', () => {
  it('indexes, searches, updates and explains without touching the disk', async () => {
    const fs = createMemoryWorkspaceFs('upload', {
      'src/CatalogService.cs': 'public class CatalogService\n{\n    public void GetCatalogItems() { }\n}\n',
      'src/bin/Debug/generated.cs': 'class Generated {}\n',
      '.gitignore': 'docs/private/\n',
      'docs/private/notes.md': '# Notes\nGetCatalogItems secret plans\n',
      'docs/readme.md': '# Readme\nSee GetCatalogItems.\n',
    });
    const storage = createMemoryIndexStorage('test-memory');
    const w = await HciWorkspace.open({ fs, storage });
    const s = await w.index();
    expect(s.files_indexed).toBe(2);
    expect(s.skipped).toMatchObject({ ignored: 1, denied_path: 1 });
    const r = await w.search({ query: 'GetCatalogItems' });
    expect(r.hits.map((h) => h.path)).toEqual(['src/CatalogService.cs', 'docs/readme.md']);
    expect(r.index?.location).toBe('memory:/test-memory.sqlite');
    expect((await w.explain(r.hits[0].hit_id)).explanation?.rank).toBe(1);

    fs.files.delete('docs/readme.md');
    fs.files.set('src/New.cs', { bytes: new TextEncoder().encode('class BrandNew {}\n'), mtimeMs: 1 });
    const s2 = await w.index();
    expect(s2).toMatchObject({ files_indexed: 1, files_removed: 1, files_unchanged: 1 });
    w.close();

    const again = await HciWorkspace.open({ fs, storage });
    expect((await again.search({ query: 'BrandNew' })).hits[0]?.path).toBe('src/New.cs');
    again.close();
  });

  it('refuses paths that leave the workspace', async () => {
    const fs = createMemoryWorkspaceFs('upload', { 'a.cs': 'class A {}' });
    await expect(fs.readFile('../etc/passwd')).rejects.toMatchObject({ code: 'path_outside_workspace' });
  });
});

describe('workspace connection', () => {
  it('concurrent first calls share one connection', async () => {
    const fs = createMemoryWorkspaceFs('upload', { 'a.cs': 'class Alpha {}\n' });
    const storage = createMemoryIndexStorage('test-concurrent-open');
    let opens = 0;
    const open = storage.open.bind(storage);
    storage.open = (engine) => (opens++, open(engine));
    const w = await HciWorkspace.open({ fs, storage });
    await w.index();
    w.close();
    opens = 0;
    const again = await HciWorkspace.open({ fs, storage });
    const answers = await Promise.all([again.search({ query: 'Alpha' }), again.status(), again.search({ query: 'class' }), again.outline('a.cs')]);
    expect(answers.map((a) => a.status)).toEqual(['ok', 'ok', 'ok', 'ok']);
    expect(opens).toBe(1);
    again.close();
  });

  it('exclude_extensions may span dots (.min.js)', async () => {
    const fs = createMemoryWorkspaceFs('upload', { 'app.js': 'function app() {}\n', 'lib.min.js': 'function x(){}\n' });
    const w = await HciWorkspace.open({ fs, storage: createMemoryIndexStorage('test-min-js') }, { settings: { exclude_extensions: ['.min.js'] } });
    const s = await w.index();
    expect(s.files_indexed).toBe(1);
    expect(s.skipped.unsupported_ext).toBe(1);
    w.close();
  });
});

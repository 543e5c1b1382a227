// The browser runtime entry. Today: workspaces from files in memory (a FileList upload or an
// unzipped archive) indexed in SQLite's memdb. The OPFS-backed index (opfs-sahpool) in a Worker,
// directory handles and comlink exposure build on the same two seams: WorkspaceFs and IndexStorage.
export * from '../../core/index.ts';

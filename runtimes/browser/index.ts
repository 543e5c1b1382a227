// The browser runtime entry. Page side: connectHci() talks to the hci module Worker (worker.ts),
// where the core runs with its index on OPFS (opfs-sahpool, one folder per workspace) and reads a
// directory handle, an `<input webkitdirectory>` file list or a .zip. The adapters are exported
// too, for hosts that run the core themselves (in their own Worker, or in memory).
export * from '../../core/index.ts';
export { connectHci, workerReady, HciClient, BrowserWorkspace, downloadBytes, type ClientIndexOptions } from './client.ts';
export {
  HciWorkerError, READY_MESSAGE, PROTOCOL_VERSION, installErrorTransfer, type BrowserSource, type HciWorkerApi, type OpenRequest, type OpenResult, type StoredWorkspace,
  type BrowserIndexOptions, type WorkerEvent, type WorkspaceSummary,
} from './protocol.ts';
export { createWorkerApi, type WorkerConfig } from './worker-api.ts';
export { createDirectoryHandleFs, createFileListFs, createZipFs, workspaceFsFromSource } from './sources.ts';
export { createOpfsIndexStorage, takeWorkspace, workspaceKey, type WorkspaceSlot } from './opfs-storage.ts';
export { createUrlEngineLoader, createUrlGrammarSource, type WasmUrls } from './loaders.ts';

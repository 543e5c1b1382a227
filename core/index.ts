// The public library surface of the core: the workspace facade, the contract types, the service
// layer and the platform seams a host implements.
export { HciWorkspace, type WorkspaceHost, type OpenOptions, type StatusReport, type ExplainResponse, type OutlineResponse, type ResolveResponse } from './workspace.ts';
export type { OutlineSymbol, SymbolLocation } from './search/symbols.ts';
export type { GrammarSource, GrammarName } from './chunk/treesitter.ts';
export type { WorkspaceFs, DirEntry, EntryStat } from './platform.ts';
export { HciError } from './platform.ts';
export type { IndexStorage } from './index/storage.ts';
export type { IndexOptions, IndexProgress, IndexSummary } from './index/indexer.ts';
export type { ParsePool, ParsePoolFactory, Prepared, ExtractedJson } from './index/prepare.ts';
export type { Extracted } from './chunk/chunker.ts';
// The contract's types; its zod schemas are the `hci/contract` entry (core/contract/index.ts), so a
// program that only calls the core does not load zod.
export type * from './contract/index.ts';
export { CONTRACT_VERSION } from './contract/version.ts';
export { HCI_VERSION } from './version.ts';
export { ERRORS, EXIT, exitCodeFor, hintFor, type ErrorCode, type Surface } from './contract/errors.ts';
export type { Settings } from './settings.ts';
export { defaultSettings, parseSettingsToml, validateSettings } from './settings.ts';
export { loadEngine, officialEngineLoader, type EngineLoader, type SqliteEngine } from './sqlite/engine.ts';
export type { SkipCounts, SkipReason } from './scan/walker.ts';
export { FORMAT_VERSION } from './index/schema.ts';
export { createMemoryWorkspaceFs, type MemoryFile } from './memory-fs.ts';
export { createMemoryIndexStorage } from './index/memory-storage.ts';
export * from './service/index.ts';
// Message ↔ code traceability (intercom): find, relate, markers over an NDJSON event log.
export * from './intercom/index.ts';

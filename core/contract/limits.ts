// Bounds of the contract's list answers, in a module without zod so the code that fills answers can
// read them without loading the schemas (see version.ts).
export const FILES_LIMIT = { default: 5000, max: 100_000 } as const;

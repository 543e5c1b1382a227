// The contract's version, in a module of its own so code that only fills answers (the core, the
// service, the CLI) does not load zod at run time. Bump one when a field's meaning changes.
export const CONTRACT_VERSION = 1;
/** The intercom answers' version (core/contract/intercom.ts), bumped on its own. */
export const INTERCOM_CONTRACT_VERSION = 1;

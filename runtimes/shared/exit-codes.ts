// The exit codes of every `hci` command line (Node and Deno): a view of the contract's error table
// (core/contract/errors.ts), which owns the codes and which error maps to which.
export { EXIT, exitCodeFor } from '../../core/contract/errors.ts';

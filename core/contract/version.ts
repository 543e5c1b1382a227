// The contract's version, in a module of its own so code that only fills answers (the core, the
// service, the CLI) does not load zod at run time. Bump one when a field's meaning changes.
// 2: `fts_score` is optional (a vector-only hit has none), `match` may be `similar`, hits carry
// `fts_norm`/`vec_norm` in hybrid mode, and `score` is the fused score there; `hit_kind` may be
// `text_literal` (with `match_lines` and `literal_score`, no `fts_score`), the request takes mode
// `literal` | `regex` with `case_sensitive`/`whole_word`, and the answer's `mode` is the mode that answered.
export const CONTRACT_VERSION = 2;
/** The intercom answers' version (core/contract/intercom.ts), bumped on its own. */
export const INTERCOM_CONTRACT_VERSION = 1;

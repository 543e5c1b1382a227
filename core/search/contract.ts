// The search contract's types, kept at their old import path for existing callers: the schemas and
// the types derived from them are declared once, in core/contract/.
export { CONTRACT_VERSION } from '../contract/version.ts';
export type {
  SearchMode, SearchStatus, HitKind, MatchKind, SearchRequest, HitSymbol, SearchHit, IndexFreshness, SearchResponse,
} from '../contract/index.ts';

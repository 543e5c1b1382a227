// The search contract's types, kept at their old import path for existing callers: the schemas and
// the types derived from them are declared once, in core/contract/.
export {
  CONTRACT_VERSION,
  type SearchMode, type SearchStatus, type HitKind, type MatchKind, type SearchRequest, type HitSymbol, type SearchHit,
  type IndexFreshness, type SearchResponse,
} from '../contract/index.ts';

// The path role factors for the hybrid fusion's vector side (setting `vector_roles`, fuse.ts): the
// vector channel's hits are not reranked, so a test, docs, demo or generated file the vector list
// ranks high entered the fusion on its cosine alone while keyword's side carried the role factors in
// its final score. This resolves a candidate's role as rerank does (roles.ts: path rules, stored
// flags, the enclosing project; cached per index generation by the session) and gives its factor
// under the settings, 1 for source and for a role the query names (and records the role and its
// factor on a candidate rerank had not seen, so explain shows them). Owns that lookup for the fusion;
// the roles and factors are roles.ts's, where the factor goes fuse.ts's.
import type { Settings } from '../settings.ts';
import type { RoleVerdict } from '../scan/roles.ts';
import type { Candidate } from './candidates.ts';
import type { ParsedQuery } from './query.ts';
import { resolveRole, roleFactor, rolesNamedBy, ROLE_SETTING } from './roles.ts';
import type { SearchSession } from './session.ts';

/** For a query, each candidate's path role factor (the file's role resolved once per index generation). */
export function pathRoleFactors(session: SearchSession, settings: Settings): (q: ParsedQuery) => (c: Candidate) => number {
  return (q) => {
    const named = rolesNamedBy(q);
    // rerank's map (rerank.ts applyFactors): a file's role is worked out once per generation for both.
    const roles = session.cached('roles', () => new Map<number, RoleVerdict>());
    return (c) => {
      if (c.role) return roleFactor(c.role.role, settings, named);
      let role = roles.get(c.fileId);
      if (!role) roles.set(c.fileId, (role = resolveRole(c.path, c.flags, session.projects())));
      const factor = roleFactor(role.role, settings, named);
      // A vector hit is not reranked: its role and factor are known from here on (explain shows them, as rerank's).
      c.role = role;
      if (role.role !== 'source') c.factors.push({ name: ROLE_SETTING[role.role], factor });
      return factor;
    };
  };
}

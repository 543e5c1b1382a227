// Commit mining for the tuning set: candidate SWE-bench-style localisation queries from a repository's
// history up to its pinned commit. A candidate is a non-merge commit with a descriptive subject that
// changed 1-4 non-test files of indexable types, every one still at the same path at the pin (no file
// deleted). Owns the filters and the subject clean-up; a person picks from the candidates (the
// survival figure helps: how much of the commit's added text is still in the pinned files).
import { spawnSync } from 'node:child_process';

/** File types a candidate's files may have (hci's languages plus the web front-end's). */
export const MINE_EXTS = new Set(['cs', 'razor', 'cshtml', 'axaml', 'xaml', 'md', 'mdx', 'csproj', 'props', 'targets', 'sln', 'slnx',
  'json', 'yml', 'yaml', 'toml', 'editorconfig', 'html', 'css', 'scss', 'js', 'mjs', 'cjs', 'jsx', 'ts', 'mts', 'cts', 'tsx', 'resx', 'xshd']);

const BAD_SUBJECT = new RegExp(String.raw`\b(bump(s|ed)?|nuget|dependabot|renovate|dependenc(y|ies)|deps|versions?|upgrade[ds]?|wip|typos?|` +
  String.raw`format(ting|ted)?|lint|merge|revert|release|packages?|copilot|skip ci|whitespace|clean ?up|` +
  String.raw`update (to )?(\.net|net|dotnet|avalonia|aspire|sdk|node|react|typescript)|rename namespace|initial commit|` +
  String.raw`changelog|licen[cs]e|code of conduct|resharper|rider|translations?|crowdin|localiz(e|ation)|new crowdin|readme)\b`, 'i');

/** Tests, benchmarks and snapshots are never relevant (they are realistic distractors in the index). */
export const TEST_PATH = /(^|\/)(tests?|__tests__|__snapshots__|[^/]*\.tests?|[^/]*tests|e2e|[^/]*unittests?|[^/]*functionaltests?|[^/]*integrationtests?|benchmarks?|[^/]*\.benchmarks?|[^/]*testcomponents|[^/]*testapp|[^/]*trimtest)(\/|$)|tests?\.cs$|\.(test|spec)\.[cm]?[jt]sx?$/i;

const SKIP_FILE = /(^|\/)(Directory\.Packages\.props|global\.json|packages\.lock\.json|package(-lock)?\.json|yarn\.lock|pnpm-lock\.yaml|nuget\.config|\.gitignore|CHANGELOG\.md|[^/]*\.min\.(css|js)|[^/]*\.snap|[^/]*\.g\.cs|[^/]*\.Designer\.cs|locales\/[^/]*\.json|Resources\/[^/]*\.[a-z]{2}(-[A-Za-z]+)?\.resx)$/i;

const CONVENTIONAL = /^(feat|fix|misc|refactor|chore|test|tests|doc|docs|ci|style|perf|build)(\(([^)]*)\))?!?:\s*/i;

export interface Candidate {
  id: string;
  query: string;
  relevant: string[];
  kind: 'commit';
  source_commit: string;
  note: string;
  /** Share of the commit's added lines (≥ 12 characters, trimmed) still found in the pinned files. */
  survival: number;
  date: string;
}

export function cleanSubject(s: string): string {
  const m = CONVENTIONAL.exec(s);
  if (m) s = (m[3] ? `${m[3]}: ` : '') + s.slice(m[0].length);
  s = s.replace(/^\[(fix|feat|docs?)\]\s*/i, '');
  s = s.replace(/^(:[a-z_]+:\s*|[^\p{L}\p{N}"'`(\[]+\s*)/u, ''); // a leading gitmoji
  s = s.replace(/\s*\(#\d+\)/g, '').replace(/\s*#\d+\s*$/, '').trim();
  return s.replace(/\.+$/, '').trim();
}

/** The query text: URLs, "fixes #n", issue numbers and dangling words left by them removed. */
export function cleanQuery(q: string): string {
  q = q.replace(/\s*(Port of upstream\s+)?https?:\/\/\S+/g, '');
  q = q.replace(/^(Try )?fix(es|ed)? #\d+[,:]?\s*/i, '');
  q = q.replace(/\s*\((fixes |closes )?#\d+\)/gi, '');
  q = q.replace(/\s+#\d+\b/g, '');
  q = q.replace(/\s+(in|and)$/, '');
  q = q.replace(/\.\s*(Fixes|Closes|Resolves)\.?$/i, '');
  return shorten(q.trim().replace(/\.+$/, '').trim());
}

/** A subject that is a whole paragraph becomes its first sentence (at most ~200 characters, cut at a word). */
export function shorten(q: string, max = 200): string {
  if (q.length <= max) return q;
  const m = /^(.{20,}?[a-z0-9)`'"])\.\s+[A-Z]/.exec(q);
  if (m && m[1].length <= max && words(m[1]).length >= 5) return m[1];
  const cut = q.slice(0, max);
  return cut.slice(0, cut.lastIndexOf(' ') > 0 ? cut.lastIndexOf(' ') : max).replace(/[,;:\s]+$/, '');
}

const words = (s: string) => s.match(/[A-Za-z][A-Za-z0-9_.]*/g) ?? [];

function git(gitDir: string, args: string[]): string {
  const r = spawnSync('git', ['--git-dir', gitDir, ...args], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`git ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

const extOf = (p: string) => {
  const b = p.slice(p.lastIndexOf('/') + 1);
  if (b === '.editorconfig') return 'editorconfig';
  const dot = b.lastIndexOf('.');
  return dot > 0 ? b.slice(dot + 1).toLowerCase() : '';
};

function survival(gitDir: string, sha: string, pin: string, paths: readonly string[], cache: Map<string, string>): number {
  const diff = git(gitDir, ['show', '--no-renames', '--format=', '-U0', sha, '--', ...paths]);
  let file = '';
  let added = 0;
  let kept = 0;
  for (const line of diff.split('\n')) {
    if (line.startsWith('+++ ')) file = line.startsWith('+++ b/') ? line.slice(6) : '';
    else if (line.startsWith('+') && file) {
      const t = line.slice(1).trim();
      if (t.length < 12) continue;
      if (!cache.has(file)) cache.set(file, spawnSync('git', ['--git-dir', gitDir, 'show', `${pin}:${file}`], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout ?? '');
      added++;
      if (cache.get(file)!.includes(t)) kept++;
    }
  }
  return added ? kept / added : 0;
}

/** Every candidate up to the pinned commit, newest first. */
export function mineCommits(gitDir: string, pin: string, repo: string, opts: { max?: number } = {}): Candidate[] {
  const head = new Set(git(gitDir, ['ls-tree', '-r', '--name-only', '--full-tree', pin]).split('\n').filter(Boolean));
  const log = git(gitDir, ['log', '--no-merges', '--no-renames', '--format=%x00%H%x1f%cs%x1f%s%x1f%b%x1e', '--name-status', pin]);
  const seen = new Set<string>();
  const out: Candidate[] = [];
  const cache = new Map<string, string>();
  for (const rec of log.split('\0').slice(1)) {
    const [meta, files = ''] = rec.split('\x1e');
    const [sha, date, subject, body = ''] = meta.split('\x1f');
    const subj = cleanSubject(subject);
    if (BAD_SUBJECT.test(subj) || /^(update|create|fix|add)\s+\S+$/i.test(subj) || words(subj).length < 3) continue;
    const changes = files.trim().split('\n').filter((l) => l.includes('\t')).map((l) => l.split('\t'));
    const nonTest = changes.map((c) => [c[0], c[c.length - 1]] as const).filter(([, p]) => !TEST_PATH.test(p));
    if (!nonTest.length || nonTest.length > 4 || nonTest.some(([st]) => st.startsWith('D'))) continue;
    const kept = nonTest.filter(([, p]) => MINE_EXTS.has(extOf(p)) && !SKIP_FILE.test(p));
    if (!kept.length || !kept.some(([st]) => st === 'M')) continue;
    const paths = kept.map(([, p]) => p);
    if (paths.some((p) => !head.has(p))) continue;
    let q = subj;
    if (words(subj).length < 7) {
      for (let line of body.split('\n')) {
        line = line.trim().replace(/^[-*\s]+/, '').trim();
        if (!line || /^(co-authored-by|signed-off-by|fixes|closes|resolves)\b/i.test(line) || /^(http|<!--|#)/.test(line)) continue;
        if (cleanSubject(line).toLowerCase() === subj.toLowerCase() || line.split(/\s+/).length < 3) continue; // a body that repeats the subject
        if (line.length <= 160) q = `${q}. ${line}`;
        break;
      }
    }
    q = cleanQuery(q);
    if (words(q).length < 4 || seen.has(q.toLowerCase())) continue;
    seen.add(q.toLowerCase());
    out.push({
      id: `${repo}-c-${sha.slice(0, 8)}`, query: q, relevant: [...paths].sort(), kind: 'commit', source_commit: sha,
      note: `from commit ${sha} (${date}); original subject: ${subject}`, survival: survival(gitDir, sha, pin, paths, cache), date,
    });
    if (opts.max && out.length >= opts.max) break;
  }
  return out;
}

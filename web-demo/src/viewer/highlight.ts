// Syntax colouring for the file viewer: highlight.js core (a chunk loaded with the first file opened:
// the search screen never needs it) with only the grammars of languages hci indexes, each loaded on
// first use (a chunk of its own), and the highlighted HTML cut into lines so
// every line is its own row (spans open across a line break are closed and reopened). Owns the
// hci-language → highlight.js-grammar table; files past MAX_BYTES are shown plain.
import type { HLJSApi, LanguageFn } from 'highlight.js';

type Loader = () => Promise<{ default: LanguageFn }>;

const GRAMMARS: Record<string, Loader> = {
  csharp: () => import('highlight.js/lib/languages/csharp'),
  xml: () => import('highlight.js/lib/languages/xml'),
  css: () => import('highlight.js/lib/languages/css'),
  scss: () => import('highlight.js/lib/languages/scss'),
  json: () => import('highlight.js/lib/languages/json'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
  ini: () => import('highlight.js/lib/languages/ini'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  javascript: () => import('highlight.js/lib/languages/javascript'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
};

/** hci's language ids (core/languages/table.ts) → a highlight.js grammar; absent: plain text. */
const FOR_LANG: Record<string, string> = {
  csharp: 'csharp', razor: 'xml', axaml: 'xml', xaml: 'xml', msbuild: 'xml', slnx: 'xml', html: 'xml',
  css: 'css', scss: 'scss', json: 'json', yaml: 'yaml', toml: 'ini', editorconfig: 'ini', markdown: 'markdown',
  javascript: 'javascript', jsx: 'javascript', typescript: 'typescript', tsx: 'typescript',
};

const MAX_BYTES = 400_000;
const loading = new Map<string, Promise<HLJSApi | null>>();
let core: Promise<HLJSApi> | undefined;

/** highlight.js with grammar `name` registered, or null when either failed to load (offline, say). */
function ensureGrammar(name: string): Promise<HLJSApi | null> {
  let p = loading.get(name);
  if (!p) {
    core ??= import('highlight.js/lib/core').then((m) => m.default);
    p = Promise.all([core, GRAMMARS[name]()]).then(
      ([hljs, m]) => {
        hljs.registerLanguage(name, m.default);
        return hljs;
      },
      () => null,
    );
    loading.set(name, p);
  }
  return p;
}

const ESC: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
export const escapeHtml = (s: string) => s.replace(/[&<>"]/g, (c) => ESC[c]);

/** HTML cut at line breaks: each piece has every span it opens closed, and reopens those still open. */
export function splitHtmlLines(html: string): string[] {
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  let at = 0;
  for (const m of html.matchAll(/<span[^>]*>|<\/span>|\n/g)) {
    line += html.slice(at, m.index);
    at = m.index + m[0].length;
    if (m[0] === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else {
      if (m[0] === '</span>') open.pop();
      else open.push(m[0]);
      line += m[0];
    }
  }
  lines.push(line + html.slice(at));
  return lines;
}

/** One HTML string per line of `text`, coloured for hci language `lang` when a grammar fits. */
export async function highlightLines(text: string, lang: string): Promise<{ lines: string[]; grammar: string | null }> {
  const name = FOR_LANG[lang];
  const hljs = name && text.length <= MAX_BYTES ? await ensureGrammar(name) : null;
  if (hljs) {
    return { lines: splitHtmlLines(hljs.highlight(text, { language: name, ignoreIllegals: true }).value), grammar: name };
  }
  return { lines: text.split('\n').map(escapeHtml), grammar: null };
}

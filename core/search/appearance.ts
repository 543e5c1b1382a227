// Appearance questions: a query about how something looks ("Don't use margin around ContentDialog",
// "Hide blue tap highlight on mobile", "Table: avoid checkbox overflow", "add dark mode support") is
// answered by a stylesheet or a XAML style or theme more often than by the component's code, which
// holds the component's name many more times. Such a query holds an appearance word; a style chunk
// is one of a stylesheet (a language row with `stylesheet`: CSS, SCSS) or a XAML style, control
// theme or resource dictionary.
// Owns the vocabulary and the two tests; the factor (setting style_query_boost, explain
// `style_query`) is applied by rerank.ts.
import type { ParsedQuery } from './query.ts';
import { languageById } from '../languages/table.ts';

/** Words that ask how something looks (lower case, as query tokens are). */
const APPEARANCE = new Set((
  'appearance look looks visual visuals style styles styling styled theme themes themed dark css scss stylesheet ' +
  'color colors colour colours background backgrounds foreground brush brushes fill stroke opacity transparent transparency ' +
  'margin margins padding paddings border borders radius corner corners outline shadow shadows elevation ' +
  'font fonts typeface bold italic underline ' +
  'width height spacing gap overflow scrollbar clip ' +
  'highlight hover hovered pressed ripple animation animations transition transitions ' +
  'black white red green blue yellow orange purple gray grey pink'
).split(' '));

/** Chunk kinds of XAML styling: a style, a control theme, a resource dictionary (theme resources). */
const STYLE_KINDS = new Set(['style', 'styles', 'theme', 'resources', 'resource']);

/** The query's appearance words (empty: not an appearance question). */
export function appearanceWords(q: Pick<ParsedQuery, 'clauses'>): string[] {
  const out: string[] = [];
  for (const c of q.clauses) {
    const tokens = c.kind === 'word' ? [c.token, ...c.parts] : c.kind === 'phrase' ? c.tokens : [];
    for (const t of tokens) if (APPEARANCE.has(t) && !out.includes(t)) out.push(t);
  }
  return out;
}

/** Whether a chunk styles something: a stylesheet's, or a XAML style, theme or resource chunk. */
export function isStyleChunk(c: { lang: string; symbolKind: string | null }): boolean {
  return languageById(c.lang)?.stylesheet === true || STYLE_KINDS.has(c.symbolKind ?? '');
}

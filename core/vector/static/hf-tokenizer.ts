// A Hugging Face `tokenizer.json` as static embedding models (model2vec) use it: the text to token
// ids with no special tokens added. The parts such files hold: normalizers (BertNormalizer,
// Lowercase, NFC/NFD/NFKC/NFKD, StripAccents, Replace, Prepend, Sequence), pre-tokenizers
// (BertPreTokenizer, Whitespace, WhitespaceSplit, Metaspace, Punctuation, Digits, Split on a
// string, Sequence) and models (WordPiece, greedy longest-match-first with its continuation
// prefix; Unigram, the segmentation of highest total score by Viterbi; WordLevel). Anything else is
// refused with a message naming it, so a model that cannot be read here fails loudly instead of
// embedding wrongly. Owns only tokenizing; the embedding table is model2vec.ts's.

type Json = Record<string, unknown>;

interface Normalizer { (s: string): string }
interface PreTokenizer { (words: string[]): string[] }

export class UnsupportedTokenizer extends Error {}

function normalizerOf(n: Json | null | undefined): Normalizer {
  if (!n) return (s) => s;
  switch (n.type) {
    case 'BertNormalizer': {
      const lowercase = n.lowercase !== false;
      const strip = n.strip_accents === null || n.strip_accents === undefined ? lowercase : n.strip_accents === true;
      const clean = n.clean_text !== false;
      const chinese = n.handle_chinese_chars !== false;
      return (s) => {
        let t = '';
        for (const ch of s) {
          const c = ch.codePointAt(0)!;
          if (c < 128) {
            // ASCII fast path: controls other than tab/newline/return dropped, whitespace a space.
            if (c === 9 || c === 10 || c === 13 || c === 32) t += clean ? ' ' : ch;
            else if (!(clean && (c < 32 || c === 127))) t += ch;
            continue;
          }
          if (clean && (c === 0 || c === 0xfffd || (/\p{Cc}|\p{Cf}/u.test(ch) && ch !== '\t' && ch !== '\n' && ch !== '\r'))) continue;
          if (clean && /\s/u.test(ch)) {
            t += ' ';
            continue;
          }
          t += chinese && isCjk(c) ? ` ${ch} ` : ch;
        }
        if (lowercase) t = t.toLowerCase();
        if (strip) t = t.normalize('NFD').replace(/\p{Mn}/gu, '');
        return t;
      };
    }
    case 'Lowercase': return (s) => s.toLowerCase();
    case 'NFC': case 'NFD': case 'NFKC': case 'NFKD': { const f = n.type; return (s) => s.normalize(f); }
    case 'StripAccents': return (s) => s.normalize('NFD').replace(/\p{Mn}/gu, '');
    case 'Strip': return (s) => (n.left !== false ? s.replace(/^\s+/, '') : s).replace(n.right !== false ? /\s+$/ : /$^/, '');
    case 'Prepend': { const p = String(n.prepend ?? ''); return (s) => (s ? p + s : s); }
    case 'Replace': {
      const pat = n.pattern as { String?: string; Regex?: string };
      const content = String(n.content ?? '');
      if (pat?.String !== undefined) { const from = pat.String; return (s) => s.split(from).join(content); }
      if (pat?.Regex !== undefined) { const re = new RegExp(pat.Regex, 'gu'); return (s) => s.replace(re, content); }
      throw new UnsupportedTokenizer('a Replace normalizer without a pattern');
    }
    case 'Sequence': {
      const parts = ((n.normalizers as Json[]) ?? []).map(normalizerOf);
      return (s) => parts.reduce((t, f) => f(t), s);
    }
    default: throw new UnsupportedTokenizer(`the ${String(n.type)} normalizer`);
  }
}

function isCjk(c: number): boolean {
  return (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x20000 && c <= 0x2a6df) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x2f800 && c <= 0x2fa1f);
}

const splitBy = (re: RegExp): PreTokenizer => (words) => words.flatMap((w) => w.match(re) ?? []);

function preTokenizerOf(p: Json | null | undefined): PreTokenizer {
  if (!p) return (w) => w;
  switch (p.type) {
    case 'BertPreTokenizer': return splitBy(/[^\s\p{P}\p{S}]+|[\p{P}\p{S}]/gu);
    case 'Whitespace': return splitBy(/\w+|[^\w\s]+/gu);
    case 'WhitespaceSplit': return splitBy(/\S+/gu);
    case 'Punctuation': return splitBy(/[^\p{P}\p{S}]+|[\p{P}\p{S}]/gu);
    case 'Digits': return p.individual_digits ? splitBy(/\p{N}|[^\p{N}]+/gu) : splitBy(/\p{N}+|[^\p{N}]+/gu);
    case 'Metaspace': {
      const rep = String(p.replacement ?? '▁');
      const scheme = String(p.prepend_scheme ?? (p.add_prefix_space === false ? 'never' : 'always'));
      const split = p.split !== false;
      return (words) => words.flatMap((w, i) => {
        let t = w.replace(/ /g, rep);
        if ((scheme === 'always' || (scheme === 'first' && i === 0)) && !t.startsWith(rep)) t = rep + t;
        if (!split) return [t];
        return t.split(new RegExp(`(?=${escapeRe(rep)})`, 'u')).filter(Boolean);
      });
    }
    case 'Split': {
      const pat = p.pattern as { String?: string; Regex?: string };
      const behavior = String(p.behavior ?? 'Isolated');
      const re = new RegExp(pat?.Regex ?? escapeRe(pat?.String ?? ' '), 'gu');
      if (behavior !== 'Isolated' && behavior !== 'Removed') throw new UnsupportedTokenizer(`a Split pre-tokenizer with behavior ${behavior}`);
      return (words) => words.flatMap((w) => {
        const out: string[] = [];
        let at = 0;
        for (const m of w.matchAll(re)) {
          if (m.index! > at) out.push(w.slice(at, m.index));
          if (behavior === 'Isolated' && m[0]) out.push(m[0]);
          at = m.index! + m[0].length;
        }
        if (at < w.length) out.push(w.slice(at));
        return out;
      });
    }
    case 'Sequence': {
      const parts = ((p.pretokenizers as Json[]) ?? []).map(preTokenizerOf);
      return (words) => parts.reduce((ws, f) => f(ws), words);
    }
    default: throw new UnsupportedTokenizer(`the ${String(p.type)} pre-tokenizer`);
  }
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

type Model = { ids(word: string, out: number[]): void; unk: number | null; size: number };

function wordPiece(m: Json): Model {
  const vocab = new Map(Object.entries(m.vocab as Record<string, number>));
  const prefix = String(m.continuing_subword_prefix ?? '##');
  const maxChars = Number(m.max_input_chars_per_word ?? 100);
  const unk = vocab.get(String(m.unk_token ?? '[UNK]')) ?? null;
  return {
    unk, size: vocab.size,
    ids(word, out) {
      const chars = [...word];
      if (chars.length > maxChars) {
        if (unk !== null) out.push(unk);
        return;
      }
      const pieces: number[] = [];
      let start = 0;
      while (start < chars.length) {
        let end = chars.length;
        let found: number | undefined;
        while (start < end) {
          found = vocab.get((start > 0 ? prefix : '') + chars.slice(start, end).join(''));
          if (found !== undefined) break;
          end--;
        }
        if (found === undefined) {
          if (unk !== null) out.push(unk);
          return;
        }
        pieces.push(found);
        start = end;
      }
      out.push(...pieces);
    },
  };
}

function wordLevel(m: Json): Model {
  const vocab = new Map(Object.entries(m.vocab as Record<string, number>));
  const unk = vocab.get(String(m.unk_token ?? '[UNK]')) ?? null;
  return {
    unk, size: vocab.size,
    ids(word, out) {
      const id = vocab.get(word) ?? unk;
      if (id !== null) out.push(id);
    },
  };
}

/** Unigram: the segmentation with the highest total log-probability (Viterbi); an unknown character is the unk piece (score: the lowest score − 10). */
function unigram(m: Json): Model {
  const entries = m.vocab as Array<[string, number]>;
  const score = new Map<string, { id: number; score: number }>();
  let min = Infinity;
  let maxLen = 1;
  entries.forEach(([piece, s], id) => {
    if (!score.has(piece)) score.set(piece, { id, score: s });
    if (s < min) min = s;
    maxLen = Math.max(maxLen, [...piece].length);
  });
  const unk = typeof m.unk_id === 'number' ? m.unk_id : null;
  const unkScore = min - 10;
  if (m.byte_fallback === true) throw new UnsupportedTokenizer('a Unigram model with byte_fallback');
  return {
    unk, size: entries.length,
    ids(word, out) {
      const chars = [...word];
      const n = chars.length;
      const best = new Float64Array(n + 1).fill(-Infinity);
      const from = new Int32Array(n + 1).fill(-1);
      const idAt = new Int32Array(n + 1).fill(-1);
      best[0] = 0;
      for (let i = 0; i < n; i++) {
        if (best[i] === -Infinity) continue;
        let any = false;
        for (let len = 1; len <= Math.min(maxLen, n - i); len++) {
          const e = score.get(chars.slice(i, i + len).join(''));
          if (!e) continue;
          if (len === 1) any = true;
          const s = best[i] + e.score;
          if (s > best[i + len]) {
            best[i + len] = s;
            from[i + len] = i;
            idAt[i + len] = e.id;
          }
        }
        if (!any && unk !== null) {
          const s = best[i] + unkScore;
          if (s > best[i + 1]) {
            best[i + 1] = s;
            from[i + 1] = i;
            idAt[i + 1] = unk;
          }
        }
      }
      if (best[n] === -Infinity) {
        if (unk !== null) out.push(unk);
        return;
      }
      const ids: number[] = [];
      for (let at = n; at > 0; at = from[at]) ids.push(idAt[at]);
      // Consecutive unknown characters are one unk (as the tokenizers library fuses them).
      let prevUnk = false;
      for (let k = ids.length - 1; k >= 0; k--) {
        const id = ids[k];
        if (id === unk && prevUnk) continue;
        prevUnk = id === unk;
        out.push(id);
      }
    },
  };
}

export class StaticTokenizer {
  private readonly normalize: Normalizer;
  private readonly preTokenize: PreTokenizer;
  private readonly model: Model;
  /** The model's unknown-token id (model2vec drops it from the ids), or null. */
  readonly unk: number | null;
  readonly vocabSize: number;
  /** Every token string by id (added tokens included): model2vec's median token length comes from it. */
  readonly tokens: string[];

  constructor(json: Json) {
    const m = json.model as Json | undefined;
    if (!m) throw new UnsupportedTokenizer('a tokenizer.json without a model');
    switch (m.type) {
      case 'WordPiece': this.model = wordPiece(m); break;
      case 'WordLevel': this.model = wordLevel(m); break;
      case 'Unigram': this.model = unigram(m); break;
      default: throw new UnsupportedTokenizer(`the ${String(m.type)} model (supported: WordPiece, Unigram, WordLevel)`);
    }
    this.normalize = normalizerOf(json.normalizer as Json | null);
    this.preTokenize = preTokenizerOf(json.pre_tokenizer as Json | null);
    this.unk = this.model.unk;
    const tokens: string[] = [];
    if (m.type === 'Unigram') (m.vocab as Array<[string, number]>).forEach(([t], i) => (tokens[i] = t));
    else for (const [t, i] of Object.entries(m.vocab as Record<string, number>)) tokens[i] = t;
    for (const a of (json.added_tokens as Array<{ id: number; content: string }> | undefined) ?? []) tokens[a.id] = a.content;
    this.tokens = tokens;
    this.vocabSize = tokens.length;
  }

  static fromJson(text: string): StaticTokenizer {
    return new StaticTokenizer(JSON.parse(text) as Json);
  }

  /** Token ids of a text, no special tokens added. */
  encode(text: string): number[] {
    const out: number[] = [];
    for (const w of this.preTokenize([this.normalize(text)])) if (w) this.model.ids(w, out);
    return out;
  }
}

// A Hugging Face `tokenizer.json` of the WordPiece family (BERT, MiniLM, BGE, GTE, E5 small: the
// local sentence-embedding models): BERT normalisation (lowercasing, accents stripped, control
// characters dropped, CJK characters spaced), BERT pre-tokenisation (whitespace and punctuation),
// greedy longest-match-first WordPiece with its `##` continuation, `[CLS] … [SEP]` around each text
// and truncation to a token budget. Owns only this; running the model is provider.ts's. Other
// tokenizer families (BPE, Unigram) are refused with a clear message.

export interface Encoded {
  ids: number[];
}

interface TokenizerJson {
  model?: { type?: string; vocab?: Record<string, number>; unk_token?: string; continuing_subword_prefix?: string; max_input_chars_per_word?: number };
  normalizer?: { type?: string; lowercase?: boolean; strip_accents?: boolean | null; clean_text?: boolean; handle_chinese_chars?: boolean } | null;
  added_tokens?: Array<{ id: number; content: string }>;
}

export class WordPieceTokenizer {
  private readonly vocab: Map<string, number>;
  private readonly unk: number;
  private readonly cls: number;
  private readonly sep: number;
  private readonly prefix: string;
  private readonly maxChars: number;
  private readonly lowercase: boolean;
  private readonly stripAccents: boolean;

  constructor(json: TokenizerJson) {
    const m = json.model;
    if (!m || m.type !== 'WordPiece' || !m.vocab) {
      throw new Error(`tokenizer.json: only WordPiece tokenizers (BERT family) are supported, this one is ${m?.type ?? 'unknown'}`);
    }
    this.vocab = new Map(Object.entries(m.vocab));
    for (const t of json.added_tokens ?? []) this.vocab.set(t.content, t.id);
    const id = (t: string) => {
      const v = this.vocab.get(t);
      if (v === undefined) throw new Error(`tokenizer.json: the vocabulary has no ${t}`);
      return v;
    };
    this.unk = id(m.unk_token ?? '[UNK]');
    this.cls = id('[CLS]');
    this.sep = id('[SEP]');
    this.prefix = m.continuing_subword_prefix ?? '##';
    this.maxChars = m.max_input_chars_per_word ?? 100;
    const n = json.normalizer;
    this.lowercase = n?.lowercase ?? true;
    this.stripAccents = n?.strip_accents ?? this.lowercase;
  }

  static fromJson(text: string): WordPieceTokenizer {
    return new WordPieceTokenizer(JSON.parse(text) as TokenizerJson);
  }

  /** `[CLS] pieces… [SEP]`, at most maxTokens ids (the pieces are cut, [SEP] kept). */
  encode(text: string, maxTokens: number): Encoded {
    const ids = [this.cls];
    const budget = Math.max(0, maxTokens - 2);
    for (const word of this.preTokenize(this.normalize(text))) {
      for (const id of this.wordPiece(word)) {
        if (ids.length - 1 >= budget) break;
        ids.push(id);
      }
      if (ids.length - 1 >= budget) break;
    }
    ids.push(this.sep);
    return { ids };
  }

  private normalize(text: string): string {
    let t = '';
    for (const ch of text) {
      const c = ch.codePointAt(0)!;
      if (c === 0 || c === 0xfffd || (c < 32 && ch !== '\t' && ch !== '\n' && ch !== '\r')) continue;
      // CJK ideographs become words of their own.
      t += (c >= 0x4e00 && c <= 0x9fff) || (c >= 0x3400 && c <= 0x4dbf) ? ` ${ch} ` : ch;
    }
    if (this.lowercase) t = t.toLowerCase();
    if (this.stripAccents) t = t.normalize('NFD').replace(/\p{Mn}/gu, '');
    return t;
  }

  private *preTokenize(text: string): Generator<string> {
    for (const m of text.matchAll(/[^\s\p{P}\p{S}]+|[\p{P}\p{S}]/gu)) yield m[0];
  }

  private wordPiece(word: string): number[] {
    const chars = [...word];
    if (chars.length > this.maxChars) return [this.unk];
    const out: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let found: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? this.prefix : '') + chars.slice(start, end).join('');
        found = this.vocab.get(piece);
        if (found !== undefined) break;
        end--;
      }
      if (found === undefined) return [this.unk];
      out.push(found);
      start = end;
    }
    return out;
  }
}

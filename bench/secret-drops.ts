// False positives of the content secret filter, measured on real trees: every file the walker
// accepts is prepared exactly as the indexer prepares it (core/index/prepare.ts, the real chunker
// with its grammars), and the chunks holding a secret are counted (with the lines left out of them:
// the secret's and a margin, secret-carve.ts) and listed with the rule that fired, so each can be
// inspected. Reads the trees only; nothing is indexed or written.
//   npm run build && node dist/bench/secret-drops.js <root>… [--show]
// --show prints each flagged line with the matched value masked (all but its first 4 characters),
// for a person judging whether it is a real secret; without it only paths, lines and rules print.
import { createNodeWorkspaceFs, createNodeGrammarSource } from '../runtimes/node/index.js';
import { defaultSettings } from '../core/settings.js';
import { scanWorkspace } from '../core/scan/walker.js';
import { classifyFile, finishFile, chunkLimits } from '../core/index/prepare.js';
import { Chunker } from '../core/chunk/chunker.js';
import { TreeSitterHost } from '../core/chunk/treesitter.js';

interface Drop { path: string; line: number; rule: string; kind: string; text?: string }

async function measure(root: string, show: boolean) {
  const fs = createNodeWorkspaceFs(root);
  const settings = defaultSettings();
  const chunker = new Chunker(new TreeSitterHost(createNodeGrammarSource()));
  const scan = await scanWorkspace(fs, settings);
  let chunks = 0;
  let dropped = 0;
  let files = 0;
  let linesOut = 0;
  let linesOfTouched = 0;
  const drops: Drop[] = [];
  for (const f of scan.files) {
    let bytes: Uint8Array;
    try {
      bytes = await fs.readFile(f.path, settings.max_indexed_file_bytes + 1);
    } catch {
      continue;
    }
    const c = classifyFile(bytes, f, settings);
    if (c.kind === 'skip') continue;
    const chunked = await chunker.chunk(c.input, chunkLimits(settings));
    const r = finishFile(c, chunked);
    if (r.kind !== 'file') continue;
    chunks += chunked.chunks.length;
    if (r.file.secretChunks === 0) continue;
    files++;
    dropped += r.file.secretChunks;
    // Lines no kept chunk holds any more, against the lines of the chunks that held a secret (what
    // leaving those chunks out whole cost before secret-carve.ts).
    const covered = (list: readonly { startLine: number; endLine: number }[]) => {
      const on = new Uint8Array(c.input.lines.length + 1);
      for (const k of list) on.fill(1, k.startLine, k.endLine + 1);
      return on;
    };
    const before = covered(chunked.chunks);
    const after = covered(r.file.chunks);
    const touched = covered(chunked.chunks.filter((k) => c.secrets.some((s) => s.startLine <= k.endLine && s.endLine >= k.startLine)));
    for (let l = 1; l < before.length; l++) {
      if (before[l] && !after[l]) linesOut++;
      if (touched[l]) linesOfTouched++;
    }
    for (const s of c.secrets) {
      const line = c.input.lines[s.startLine - 1] ?? '';
      const rule = (s as { rule?: string }).rule ?? s.kind;
      drops.push({ path: f.path, line: s.startLine, rule, kind: s.kind, ...(show ? { text: mask(line) } : {}) });
    }
  }
  return { root, files_scanned: scan.files.length, chunks, dropped, files_with_drops: files, lines_out: linesOut, lines_of_touched: linesOfTouched, drops };
}

/** The line, trimmed, with every long token-like run cut to its first 4 characters. */
function mask(line: string): string {
  return line.trim().slice(0, 200).replace(/[A-Za-z0-9+/=_~.-]{12,}/g, (t) => `${t.slice(0, 4)}…(${t.length})`);
}

const args = process.argv.slice(2);
const show = args.includes('--show');
const roots = args.filter((a) => !a.startsWith('--'));
if (!roots.length) {
  process.stderr.write('usage: node dist/bench/secret-drops.js <root>… [--show]\n');
  process.exit(2);
}
for (const root of roots) {
  const m = await measure(root, show);
  process.stdout.write(`\n## ${m.root}\nfiles ${m.files_scanned} · chunks ${m.chunks} · chunks holding a secret ${m.dropped} in ${m.files_with_drops} files · lines left out ${m.lines_out} of their ${m.lines_of_touched}\n`);
  for (const d of m.drops) process.stdout.write(`  ${d.path}:${d.line}  ${d.rule} (${d.kind})${d.text !== undefined ? `  ${d.text}` : ''}\n`);
}

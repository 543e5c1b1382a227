// Which outline extractor serves which language. Each extractor lives in core/chunk/lang/ and
// knows one language; a language without one is cut into line windows.
import type { ChunkInput } from './chunker.ts';
import type { FileOutline } from './outline.ts';
import type { TreeSitterHost } from './treesitter.ts';
import { extractCSharp } from './lang/csharp.ts';
import { extractRazor } from './lang/razor.ts';
import { extractXaml } from './lang/xaml.ts';
import { extractMarkdown } from './lang/markdown.ts';
import { extractJson } from './lang/json.ts';
import { extractYaml } from './lang/yaml.ts';
import { extractToml } from './lang/toml.ts';
import { extractMsbuild } from './lang/msbuild.ts';
import { extractSln, extractSlnx } from './lang/sln.ts';
import { extractEditorconfig } from './lang/editorconfig.ts';
import { extractCss, extractHtml, extractScript } from './lang/web.ts';

/** Builds a file's outline; null means "no structure found" (line windows are used). */
export type OutlineExtractor = (input: ChunkInput, ts: TreeSitterHost) => Promise<FileOutline | null>;

export const EXTRACTORS = new Map<string, OutlineExtractor>([
  ['csharp', extractCSharp],
  ['razor', extractRazor],
  ['axaml', extractXaml],
  ['xaml', extractXaml],
  ['markdown', extractMarkdown],
  ['json', extractJson],
  ['yaml', extractYaml],
  ['toml', extractToml],
  ['msbuild', extractMsbuild],
  ['sln', extractSln],
  ['slnx', extractSlnx],
  ['editorconfig', extractEditorconfig],
  ['html', extractHtml],
  ['css', extractCss],
  ['scss', extractCss],
  ['javascript', extractScript],
  ['typescript', extractScript],
]);

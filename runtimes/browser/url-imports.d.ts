// Vite's `?url` imports (runtimes/browser/assets.ts): the module's default export is the file's URL.
declare module '*?url' {
  const url: string;
  export default url;
}

// hciVitePlugin()'s generated module (runtimes/browser/vite-plugin.ts): a URL per grammar-table entry, and the code model's.
declare module 'virtual:hci-tree-sitter-urls' {
  const urls: { treeSitter: string; grammars: Record<import('../../core/languages/grammars.ts').GrammarId, string>; codeModel: string };
  export default urls;
}

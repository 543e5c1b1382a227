// Vite's `?url` imports (runtimes/browser/assets.ts): the module's default export is the file's URL.
declare module '*?url' {
  const url: string;
  export default url;
}

// Whether a root names a published index by its http(s) URL (read over range requests, http-vfs.ts)
// rather than a workspace folder. Its own small module so hosts can ask without loading the VFS.

/** An absolute http(s) URL, or null. */
export function indexUrl(s: string): URL | null {
  if (!/^https?:\/\//i.test(s)) return null;
  try {
    return new URL(s);
  } catch {
    return null;
  }
}

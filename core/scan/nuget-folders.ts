// Which folders are packages NuGet restored into the workspace, known from the folder's own listing
// (setting skip_nuget_packages). Owns the rule only: the walk (walker.ts) skips such a folder, and
// the eval's corpus copy (bench/lib/util.ts) leaves it out the same way. A folder name alone cannot
// say it: `packages/` is a NuGet restore folder in a packages.config solution, the whole source of a
// JavaScript/TypeScript monorepo, and a hand-written package project in others (Avalonia's
// packages/Avalonia). What NuGet writes can: every package it extracts holds its `.nupkg`, named
// after the package folder.
//
//   packages.config restore   packages/<Id>.<Version>/<Id>.<Version>.nupkg
//   paket                     packages/<Id>/<Id>.<Version>.nupkg
//   global-packages layout    <root>/<id>/<version>/<id>.<version>.nupkg  (+ .nupkg.metadata)
//
// A `.nupkg` that is not named after its folder (test data, a local feed of packages) marks nothing,
// nor does one beside a project or solution file (a project that packs into its own folder).

const PROJECT_FILE = /\.(?:csproj|vbproj|fsproj|sln|slnx)$/;

/**
 * True when a folder named `name`, inside a folder named `parent` ('' at the workspace root), whose
 * entries are `entries` (file and folder names), is one package NuGet (or paket) extracted.
 */
export function isRestoredNugetPackage(name: string, parent: string, entries: Iterable<string>): boolean {
  const own = `${name.toLowerCase()}.`;
  const nested = parent ? `${parent.toLowerCase()}.${name.toLowerCase()}.nupkg` : null;
  let marked = false;
  for (const entry of entries) {
    const e = entry.toLowerCase();
    if (PROJECT_FILE.test(e)) return false;
    if (e === '.nupkg.metadata' || (e.endsWith('.nupkg') && (e.startsWith(own) || e === nested))) marked = true;
  }
  return marked;
}

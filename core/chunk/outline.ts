// The outline of a file: a tree of named, line-ranged nodes (namespaces, types, members, sections,
// config keys, markup regions). Language extractors produce it; the chunk builder cuts chunks from
// it; the index stores it for `outline`, member-key resolution and "which member holds line N".
// Owns the shapes only.

export interface OutlineNode {
  /** namespace, class, record, struct, interface, enum, method, constructor, property, field, section, key, … */
  kind: string;
  name: string;
  /** Stable across line drift, e.g. `Contoso.Shop.Catalog.CatalogService.GetCatalogItemsAsync(int,string?)`. */
  memberKey?: string;
  /** 1-based, inclusive; includes leading doc comments and attributes that belong to the node. */
  startLine: number;
  endLine: number;
  /**
   * `unit`: never split into children (a member, a config leaf, a heading section without subsections);
   * `container`: cut into its children when it is too big to be one chunk.
   */
  role: 'unit' | 'container';
  /** A line this node adds to the header of every chunk inside it (`class CatalogService : ICatalogService`). */
  context?: string;
  /** Searchable facts for the header of the chunk that holds this node (routes, bindings, injected services). */
  facts?: string[];
  children: OutlineNode[];
}

export interface FileOutline {
  nodes: OutlineNode[];
  /** Header lines for every chunk of the file (important usings, `x:Class`, the page route). */
  fileContext?: string[];
  /** Coarser packing for languages of many small units (CSS rules): units below `belowLines` are packed up to `packLines`. */
  pack?: { belowLines: number; packLines: number };
  /**
   * Places where the parser met syntax its grammar does not know (absent: none). The outline was
   * recovered around them (C#: csharp-repair.ts); the index counts such files (`parse_errors`).
   */
  parseErrors?: number;
}

/** Flattens an outline depth-first, with each node's parent index (-1 for roots). */
export function flattenOutline(outline: FileOutline): Array<{ node: OutlineNode; parent: number; depth: number }> {
  const out: Array<{ node: OutlineNode; parent: number; depth: number }> = [];
  const walk = (nodes: OutlineNode[], parent: number, depth: number) => {
    for (const n of nodes) {
      const idx = out.length;
      out.push({ node: n, parent, depth });
      walk(n.children, idx, depth + 1);
    }
  };
  walk(outline.nodes, -1, 0);
  return out;
}

/**
 * The folder graph of lib/ (docs/conventions.md, "Layers"): one node per folder (lib/server is
 * one folder, its subfolders included) and one per file at lib/'s root, and an edge from A to B
 * when any module of A imports a module of B. `scripts/check-folder-cycles.ts` fails on any
 * cycle in it: an import that runs back up makes one.
 */

/** One module of dependency-cruiser's JSON output, as far as this check reads it. */
export interface CruisedModule {
  source: string;
  dependencies: { resolved: string }[];
}

/** The node a module of lib/ belongs to (its folder under lib/, or itself at lib/'s root); null outside lib/. */
export function nodeOf(source: string): string | null {
  if (!source.startsWith('lib/')) return null;
  return source.split('/').slice(0, 2).join('/');
}

/** Folder edges, each with the module imports that make it (`from → to`). */
export type FolderGraph = Map<string, Map<string, string[]>>;

export function folderGraph(modules: readonly CruisedModule[]): FolderGraph {
  const graph: FolderGraph = new Map();
  for (const module of modules) {
    const from = nodeOf(module.source);
    if (!from) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const { resolved } of module.dependencies) {
      const to = nodeOf(resolved);
      if (!to || to === from) continue;
      const edges = graph.get(from) as Map<string, string[]>;
      edges.set(to, [...(edges.get(to) ?? []), `${module.source} → ${resolved}`]);
    }
  }
  return graph;
}

/** The strongly connected sets of more than one folder (Tarjan), each sorted by name. */
export function folderCycles(graph: FolderGraph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const members: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      members.push(member);
    } while (member !== node);
    if (members.length > 1) cycles.push(members.sort());
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return cycles;
}

/**
 * The folders in layers, bottom first: each folder one layer above the highest folder it
 * imports (only meaningful without cycles).
 */
export function folderLayers(graph: FolderGraph): string[][] {
  const layer = new Map<string, number>();
  const place = (node: string): number => {
    const known = layer.get(node);
    if (known !== undefined) return known;
    layer.set(node, 0);
    const below = [...(graph.get(node)?.keys() ?? [])].map(place);
    const own = below.length === 0 ? 0 : Math.max(...below) + 1;
    layer.set(node, own);
    return own;
  };
  for (const node of graph.keys()) place(node);
  const layers: string[][] = Array.from({ length: Math.max(-1, ...layer.values()) + 1 }, () => []);
  for (const [node, own] of layer) layers[own]?.push(node);
  return layers.map((nodes) => nodes.sort());
}

/** What the check prints for each cycle: its folders, then every edge inside it with its imports. */
export function describeCycle(graph: FolderGraph, members: readonly string[], examples = 5): string {
  const lines = [`Import cycle between folders: ${members.join(', ')}`];
  for (const from of members) {
    for (const [to, imports] of [...(graph.get(from) ?? [])].sort(([a], [b]) => a.localeCompare(b))) {
      if (!members.includes(to)) continue;
      lines.push(`  ${from} → ${to} (${imports.length} import${imports.length === 1 ? '' : 's'})`);
      for (const line of imports.slice(0, examples)) lines.push(`      ${line}`);
      if (imports.length > examples) lines.push(`      … and ${imports.length - examples} more`);
    }
  }
  return lines.join('\n');
}

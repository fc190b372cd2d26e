// Items grouped by their node in one pass, so per-row lookups over thousands of nodes stay linear.

export function byNode<T extends { node: string }>(items: readonly T[]): (node: string) => T[] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(item.node);
    if (list) list.push(item);
    else groups.set(item.node, [item]);
  }
  return (node) => groups.get(node) ?? [];
}

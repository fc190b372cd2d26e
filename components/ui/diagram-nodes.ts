// Makes the nodes of a Mermaid-rendered SVG (ids like "<renderId>-flowchart-<NodeId>-<n>") focusable and
// clickable. Mermaid's own click directive is never used (securityLevel "strict"). Returns a cleanup.
// A node's accessible name holds its text as drawn, so a spoken name matches the words on screen.

const NODE_ID = /-flowchart-(.+)-\d+$/;

export interface NodeBinding {
  role: "button" | "link";
  /** The accessible name, from the node's text as drawn. */
  label: (text: string) => string;
  /** Keys that activate the node, besides a click. */
  keys: string[];
  activate: () => void;
}

export function bindDiagramNodes(root: ParentNode, bind: (nodeId: string) => NodeBinding | undefined): () => void {
  const cleanups: (() => void)[] = [];
  for (const element of root.querySelectorAll<SVGGElement>("g.node")) {
    const id = NODE_ID.exec(element.id)?.[1];
    const binding = id ? bind(id) : undefined;
    if (!id || !binding) continue;
    element.dataset.node = id;
    element.setAttribute("tabindex", "0");
    element.setAttribute("role", binding.role);
    element.setAttribute("aria-label", binding.label(spaceLabelRows(element)));
    const click = () => binding.activate();
    const key = (event: KeyboardEvent) => {
      if (!binding.keys.includes(event.key)) return;
      event.preventDefault();
      event.stopPropagation();
      binding.activate();
    };
    element.addEventListener("click", click);
    element.addEventListener("keydown", key);
    cleanups.push(() => {
      element.removeEventListener("click", click);
      element.removeEventListener("keydown", key);
    });
  }
  return () => cleanups.forEach((fn) => fn());
}

/**
 * Mermaid draws a wrapped label as one <tspan> row per line with nothing between the rows, so the node's text reads
 * "cannotuse" where the eye sees "cannot" and "use" on two lines. A space between rows (once) makes it read as drawn;
 * returns that text.
 */
function spaceLabelRows(node: SVGGElement): string {
  for (const row of node.querySelectorAll("tspan.row")) {
    const before = row.previousSibling;
    if (before && !(before.nodeType === Node.TEXT_NODE && /\s$/.test(before.textContent ?? ""))) row.before(" ");
  }
  return (node.textContent ?? "").replace(/\s+/g, " ").trim();
}

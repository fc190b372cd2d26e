// Makes the nodes of a Mermaid-rendered SVG (ids like "<renderId>-flowchart-<NodeId>-<n>") focusable and
// clickable. Mermaid's own click directive is never used (securityLevel "strict"). Returns a cleanup.

const NODE_ID = /-flowchart-(.+)-\d+$/;

export interface NodeBinding {
  role: "button" | "link";
  label: string;
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
    element.setAttribute("aria-label", binding.label);
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

// A parser for the subset of Mermaid flowchart syntax that runbooks use (docs/runbook-format.md).
// Pure and dependency-free, so the server, the checker and the browser agree on one graph.
// Mermaid's own parser confirms it in e2e/runbooks-mermaid.spec.ts.

export type NodeShape = "step" | "question";

export interface FlowNode {
  id: string;
  shape: NodeShape;
  /** The label as written, with <br/> line breaks. */
  label: string;
  line: number;
}

export interface FlowEdge {
  from: string;
  to: string;
  label?: string;
  line: number;
}

export interface Flowchart {
  direction: "TD" | "TB" | "LR" | "RL" | "BT";
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** style / classDef / class / linkStyle lines, kept for display. */
  decorations: string[];
}

export interface FlowIssue {
  line: number;
  message: string;
}

const ID = /^[A-Za-z][A-Za-z0-9_]*/;
const SHAPES: { open: string; close: string; shape: NodeShape }[] = [
  { open: "{{", close: "}}", shape: "question" },
  { open: "([", close: "])", shape: "step" },
  { open: "[[", close: "]]", shape: "step" },
  { open: "((", close: "))", shape: "step" },
  { open: "{", close: "}", shape: "question" },
  { open: "[", close: "]", shape: "step" },
  { open: "(", close: ")", shape: "step" },
];
const EDGE = /^(?:-->|==>|-\.->)(?:\|([^|]*)\|)?/;
const TEXT_EDGE = /^--\s+([^-][^>]*?)\s+-->/;

class LineError extends Error {
  constructor(
    message: string,
    readonly nodeId?: string,
  ) {
    super(message);
  }
}

interface NodeRef {
  id: string;
  shape?: NodeShape;
  label?: string;
}

function readNode(text: string, pos: number): { ref: NodeRef; pos: number } {
  const id = ID.exec(text.slice(pos));
  if (!id) throw new LineError(`expected a node id at column ${pos + 1}, found "${text.slice(pos, pos + 12)}"`);
  pos += id[0].length;
  const rest = text.slice(pos);
  const shape = SHAPES.find((s) => rest.startsWith(s.open));
  if (!shape) return { ref: { id: id[0] }, pos };
  pos += shape.open.length;
  let label: string;
  if (text[pos] === '"') {
    const end = text.indexOf('"', pos + 1);
    if (end < 0) throw new LineError(`unterminated quoted label of node ${id[0]}`, id[0]);
    label = text.slice(pos + 1, end);
    pos = end + 1;
    if (!text.startsWith(shape.close, pos)) throw new LineError(`expected "${shape.close}" after the quoted label of node ${id[0]}`, id[0]);
  } else {
    const end = text.indexOf(shape.close, pos);
    if (end < 0) throw new LineError(`node ${id[0]}: label is not closed with "${shape.close}"`, id[0]);
    label = text.slice(pos, end);
    const stray = /[[\]{}()|"]/.exec(label);
    if (stray) throw new LineError(`node ${id[0]}: "${stray[0]}" inside a label needs the label quoted, like ${id[0]}["..."]`, id[0]);
    pos = end;
  }
  pos += shape.close.length;
  if (!label.trim()) throw new LineError(`node ${id[0]} has an empty label`, id[0]);
  return { ref: { id: id[0], shape: shape.shape, label: label.trim() }, pos };
}

function skipSpace(text: string, pos: number): number {
  while (pos < text.length && (text[pos] === " " || text[pos] === "\t")) pos++;
  return pos;
}

export function parseFlowchart(source: string): { chart?: Flowchart; issues: FlowIssue[] } {
  const issues: FlowIssue[] = [];
  const lines = source.split("\n");
  const nodes = new Map<string, FlowNode>();
  const edges: FlowEdge[] = [];
  const decorations: string[] = [];
  let direction: Flowchart["direction"] | undefined;
  // Nodes seen only as a bare id so far; a later statement may still give them a shape and label.
  const placeholders = new Set<string>();
  // Nodes whose definition already failed: no second error for using them.
  const reported = new Set<string>();

  const define = (ref: NodeRef, line: number) => {
    const existing = nodes.get(ref.id);
    if (!existing) {
      nodes.set(ref.id, { id: ref.id, shape: ref.shape ?? "step", label: ref.label ?? ref.id, line });
      if (!ref.label) placeholders.add(ref.id);
      return;
    }
    if (ref.label === undefined) return;
    if (placeholders.has(ref.id)) {
      placeholders.delete(ref.id);
      Object.assign(existing, { shape: ref.shape, label: ref.label, line });
    } else if (existing.label !== ref.label || existing.shape !== ref.shape) {
      throw new LineError(`node ${ref.id} is defined twice with different text (first at line ${existing.line})`);
    }
  };

  lines.forEach((raw, index) => {
    const line = index + 1;
    const text = raw.trim();
    if (!text || text.startsWith("%%")) return;
    try {
      if (!direction) {
        const header = /^(?:graph|flowchart)\s+(TD|TB|LR|RL|BT)\s*;?$/.exec(text);
        if (!header) throw new LineError('a flowchart starts with "graph TD" or "flowchart TD"');
        direction = header[1] as Flowchart["direction"];
        return;
      }
      if (/^(style|classDef|class|linkStyle)\s/.test(text)) {
        decorations.push(text);
        return;
      }
      const first = readNode(text, 0);
      let from = first.ref;
      define(from, line);
      let pos = skipSpace(text, first.pos);
      while (pos < text.length) {
        const rest = text.slice(pos);
        const edge = EDGE.exec(rest) ?? TEXT_EDGE.exec(rest);
        if (!edge) throw new LineError(`expected an arrow "-->" at column ${pos + 1}, found "${rest.slice(0, 12)}"`);
        pos = skipSpace(text, pos + edge[0].length);
        const target = readNode(text, pos);
        define(target.ref, line);
        const label = edge[1]?.trim();
        if (edge[1] !== undefined && !label) throw new LineError(`edge ${from.id} --> ${target.ref.id} has an empty label`);
        edges.push({ from: from.id, to: target.ref.id, ...(label ? { label } : {}), line });
        from = target.ref;
        pos = skipSpace(text, target.pos);
      }
    } catch (error) {
      if (!(error instanceof LineError)) throw error;
      issues.push({ line, message: error.message });
      if (error.nodeId) reported.add(error.nodeId);
    }
  });

  if (!direction) issues.push({ line: 1, message: 'empty flowchart: expected "graph TD" and at least one node' });
  for (const id of placeholders) {
    if (reported.has(id)) continue;
    const node = nodes.get(id)!;
    issues.push({ line: node.line, message: `node ${id} is used in an edge but never given a label` });
  }
  if (issues.length > 0) return { issues };
  return { chart: { direction: direction!, nodes: [...nodes.values()], edges, decorations }, issues };
}

function formatNode(node: FlowNode): string {
  const [open, close] = node.shape === "question" ? ["{", "}"] : ["[", "]"];
  const needsQuotes = /[[\]{}()|]/.test(node.label);
  return `${node.id}${open}${needsQuotes ? `"${node.label}"` : node.label}${close}`;
}

/** Canonical text for a chart: node definitions, then edges, then decorations. */
export function serializeFlowchart(chart: Flowchart): string {
  return [
    `graph ${chart.direction}`,
    ...chart.nodes.map(formatNode),
    ...chart.edges.map((e) => `${e.from} -->${e.label ? `|${e.label}|` : ""} ${e.to}`),
    ...chart.decorations,
  ].join("\n");
}

/** A label for reading: <br/> becomes a space, entities are decoded. */
export function plainLabel(label: string): string {
  return label
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/#quot;/g, '"')
    .replace(/\s+/g, " ")
    .trim();
}

"use client";

import { useEffect, useRef, useState } from "react";
import { bindDiagramNodes } from "@/components/ui/diagram-nodes";
import { afterPaint } from "@/lib/after-paint";

// The runbook's flowchart as an inline SVG (pre-rendered by Mermaid under securityLevel "strict").
// Mermaid's click directive is never used: we bind our own listeners to its g.node elements.

interface Props {
  svg: string | null;
  flowchart: string;
  path: string[];
  current: string;
  inspected: string | null;
  onNodeClick: (id: string) => void;
}

export function Diagram({ svg, flowchart, path, current, inspected, onNodeClick }: Props) {
  const box = useRef<HTMLDivElement>(null);
  const [markup, setMarkup] = useState<string | null>(svg);
  const [fallback, setFallback] = useState<"idle" | "rendering" | "failed">(svg ? "idle" : "rendering");
  const clickRef = useRef(onNodeClick);
  useEffect(() => {
    clickRef.current = onNodeClick;
  }, [onNodeClick]);

  // Only when the pre-rendered diagram is out of date: render in the browser, still strict.
  useEffect(() => {
    if (svg) return;
    let cancelled = false;
    import("mermaid")
      .then(async ({ default: mermaid }) => {
        mermaid.initialize({ startOnLoad: false, securityLevel: "strict", theme: "dark" });
        const { svg: drawn } = await mermaid.render("runbook", flowchart);
        if (!cancelled) {
          setMarkup(drawn);
          setFallback("idle");
        }
      })
      .catch(() => !cancelled && setFallback("failed"));
    return () => {
      cancelled = true;
    };
  }, [svg, flowchart]);

  // Bind listeners once per rendering.
  useEffect(() => {
    const root = box.current;
    if (!root || !markup) return;
    const cleanup = bindDiagramNodes(root, (id) => ({
      role: "button",
      label: (text) => `Step ${id}: ${text}`,
      keys: ["Enter", " "],
      activate: () => clickRef.current(id),
    }));
    document.documentElement.dataset.runbookInteractive = String(Math.round(performance.now()));
    return cleanup;
  }, [markup]);

  // Highlight the path taken, the current step and the inspected one. This restyles the SVG and
  // may scroll it, so it waits until the new step has been painted: the step panel comes first.
  useEffect(() => {
    const root = box.current;
    if (!root || !markup) return;
    return afterPaint(() => {
      const onPath = new Set(path);
      for (const element of root.querySelectorAll<SVGGElement>("g.node[data-node]")) {
        const id = element.dataset.node!;
        element.classList.toggle("fl-path", onPath.has(id));
        element.classList.toggle("fl-current", id === current);
        element.classList.toggle("fl-inspected", id === inspected);
      }
      for (const edge of root.querySelectorAll(".fl-path-edge")) edge.classList.remove("fl-path-edge");
      for (let i = 1; i < path.length; i++) {
        for (const edge of root.querySelectorAll(`path[data-id^="L_${CSS.escape(path[i - 1])}_${CSS.escape(path[i])}_"]`)) {
          edge.classList.add("fl-path-edge");
        }
      }
      scrollIntoBox(root, root.querySelector<SVGGElement>(`g.node[data-node="${CSS.escape(current)}"]`));
    });
  }, [markup, path, current, inspected]);

  if (!markup) {
    return (
      <div className="diagram diagram-missing" role="status">
        {fallback === "failed" ? "The diagram could not be drawn; the steps on the right still work." : "Drawing the diagram…"}
      </div>
    );
  }
  return (
    <div
      ref={box}
      className="diagram"
      data-testid="diagram"
      role="group"
      aria-label="Decision tree; select a step to read it"
      dangerouslySetInnerHTML={{ __html: markup }}
    />
  );
}

/** Scrolls the diagram box (not the page) so that the node is visible. */
function scrollIntoBox(box: HTMLElement, node: Element | null): void {
  if (!node) return;
  const outer = box.getBoundingClientRect();
  const inner = node.getBoundingClientRect();
  if (inner.top < outer.top) box.scrollTop -= outer.top - inner.top + 24;
  else if (inner.bottom > outer.bottom) box.scrollTop += inner.bottom - outer.bottom + 24;
  if (inner.left < outer.left) box.scrollLeft -= outer.left - inner.left + 24;
  else if (inner.right > outer.right) box.scrollLeft += inner.right - outer.right + 24;
}

"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";
import { bindDiagramNodes } from "@/components/ui/diagram-nodes";

/** The pre-rendered dependency diagram; a component with a page opens it on click or Enter. */
export function DependencyDiagram({ svg, pages }: { svg: string; pages: string[] }) {
  const box = useRef<HTMLDivElement>(null);
  const router = useRouter();
  useEffect(() => {
    if (!box.current) return;
    return bindDiagramNodes(box.current, (nodeId) => {
      // Mermaid node ids cannot hold "-", so the diagram writes component ids with "_".
      const id = nodeId.replace(/_/g, "-");
      if (!pages.includes(id)) return undefined;
      return { role: "link", label: (text) => `Blast radius of ${text}`, keys: ["Enter"], activate: () => router.push(`/blast-radius/${id}`) };
    });
  }, [pages, router]);
  return <div ref={box} className="diagram dependency-diagram" data-testid="dependency-diagram" dangerouslySetInnerHTML={{ __html: svg }} />;
}

"use client";

import { useRouter } from "next/navigation";
import { useEffect, useRef } from "react";

const NODE_ID = /-flowchart-(.+)-\d+$/;

/** The pre-rendered dependency diagram; a component with a page opens it on click or Enter. */
export function DependencyDiagram({ svg, pages }: { svg: string; pages: string[] }) {
  const box = useRef<HTMLDivElement>(null);
  const router = useRouter();
  useEffect(() => {
    const cleanups: (() => void)[] = [];
    for (const element of box.current?.querySelectorAll<SVGGElement>("g.node") ?? []) {
      const id = NODE_ID.exec(element.id)?.[1]?.replace(/_/g, "-");
      if (!id || !pages.includes(id)) continue;
      element.setAttribute("tabindex", "0");
      element.setAttribute("role", "link");
      element.setAttribute("aria-label", `Blast radius of ${id}`);
      const open = () => router.push(`/blast-radius/${id}`);
      const key = (e: KeyboardEvent) => e.key === "Enter" && open();
      element.addEventListener("click", open);
      element.addEventListener("keydown", key);
      cleanups.push(() => {
        element.removeEventListener("click", open);
        element.removeEventListener("keydown", key);
      });
    }
    return () => cleanups.forEach((fn) => fn());
  }, [pages, router]);
  return <div ref={box} className="diagram dependency-diagram" data-testid="dependency-diagram" dangerouslySetInnerHTML={{ __html: svg }} />;
}

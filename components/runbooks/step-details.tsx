import Link from "next/link";
import type { RunbookNode } from "@/lib/runbooks/schema";
import { Badge } from "@/components/ui/badge";
import { CommandBlock } from "@/components/ui/command-block";
import type { Titles } from "./types";

const KIND_LOOK: Record<RunbookNode["kind"], { label: string; tone: "green" | "orange" | "grey" }> = {
  start: { label: "Symptom", tone: "grey" },
  question: { label: "Question", tone: "grey" },
  step: { label: "Check", tone: "grey" },
  action: { label: "Fix", tone: "green" },
  diagnosis: { label: "Diagnosis", tone: "orange" },
};

export function KindBadge({ kind }: { kind: RunbookNode["kind"] }) {
  const look = KIND_LOOK[kind];
  return <Badge tone={look.tone}>{look.label}</Badge>;
}

export function StepDetails({ node, catalogTitles, runbookTitles }: { node: RunbookNode; catalogTitles: Titles; runbookTitles: Titles }) {
  return (
    <div className="step-details">
      {node.text ? <p>{node.text}</p> : null}
      {node.commands.map((c, i) => (
        <CommandBlock key={i} command={c.command} label={c.label} />
      ))}
      {node.expect ? (
        <p className="expect">
          <strong>Expect:</strong> {node.expect}
        </p>
      ) : null}
      {node.signal ? (
        <p className="muted signal-note">
          Live signal that answers this: <code>{node.signal}</code>
        </p>
      ) : null}
      {node.catalog.length > 0 ? (
        <div className="links">
          <strong>Catalog:</strong>{" "}
          {node.catalog.map((id) => (
            <Link key={id} className="chip" href={`/catalog/${id}`}>
              {catalogTitles[id] ?? id}
            </Link>
          ))}
        </div>
      ) : null}
      {node.runbooks.length > 0 ? (
        <div className="links">
          <strong>Continue with:</strong>{" "}
          {node.runbooks.map((id) => (
            <Link key={id} className="chip" href={`/runbooks/${id}`}>
              {runbookTitles[id] ?? id}
            </Link>
          ))}
        </div>
      ) : null}
    </div>
  );
}

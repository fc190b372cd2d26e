import type { Metadata } from "next";
import { RunbookList } from "@/components/runbooks/runbook-list";
import { getCatalog } from "@/lib/catalog/queries";

export const metadata: Metadata = { title: "Runbooks" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function RunbooksPage({ searchParams }: { searchParams: SearchParams }) {
  const q = (await searchParams).q;
  const { runbooks, components } = getCatalog();
  return (
    <>
      <h1>Runbooks</h1>
      <p className="lead">
        Decision trees for the on-call: start from the symptom, answer one question at a time, run the command shown,
        reach the fix. The address keeps your path, so a hand-over lands on the same step.
      </p>
      <RunbookList
        initialQuery={typeof q === "string" ? q : ""}
        components={components.map(({ id, name }) => ({ id, name }))}
        runbooks={runbooks.map((r) => ({
          id: r.id,
          title: r.title,
          symptom: r.symptom,
          components: r.components,
          steps: r.nodes.length,
          text: r.nodes.map((n) => `${n.label} ${n.text ?? ""} ${n.commands.map((c) => c.command).join(" ")}`).join(" "),
        }))}
      />
    </>
  );
}

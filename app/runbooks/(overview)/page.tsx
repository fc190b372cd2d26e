import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import { RunbookList } from "@/components/runbooks/runbook-list";
import { loadRunbookList } from "@/lib/views/runbooks";

export const metadata: Metadata = { title: "Runbooks" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function RunbooksPage({ searchParams }: { searchParams: SearchParams }) {
  await pageAccess("viewer");
  const { initialQuery, components, runbooks } = loadRunbookList((await searchParams).q);
  return (
    <>
      <h1>Runbooks</h1>
      <p className="lead">
        Decision trees for the on-call: start from the symptom, answer one question at a time, run the command shown, reach the fix. The address keeps your
        path, so a hand-over lands on the same step.
      </p>
      <RunbookList initialQuery={initialQuery} components={components} runbooks={runbooks} />
    </>
  );
}

"use client";

import Link from "next/link";
import { useMemo, useState } from "react";

export interface RunbookSummary {
  id: string;
  title: string;
  symptom: string;
  components: string[];
  steps: number;
  /** all step text, for search */
  text: string;
}

export function RunbookList({
  runbooks,
  components,
  initialQuery,
}: {
  runbooks: RunbookSummary[];
  components: { id: string; name: string }[];
  initialQuery: string;
}) {
  const [query, setQuery] = useState(initialQuery);
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  const matches = useMemo(
    () => runbooks.filter((r) => words.every((w) => `${r.title} ${r.symptom} ${r.text} ${r.id}`.toLowerCase().includes(w))),
    [runbooks, words],
  );
  // A runbook appears under each component it concerns.
  const groups = components.map((c) => ({ ...c, runbooks: matches.filter((r) => r.components.includes(c.id)) })).filter((g) => g.runbooks.length > 0);

  function update(value: string) {
    setQuery(value);
    const url = new URL(window.location.href);
    if (value) url.searchParams.set("q", value);
    else url.searchParams.delete("q");
    window.history.replaceState(null, "", url);
  }

  return (
    <>
      <label className="field" style={{ maxWidth: 520 }}>
        Search symptoms, steps and commands
        <input
          type="search"
          value={query}
          onChange={(e) => update(e.target.value)}
          placeholder="e.g. sealed, CrashLoopBackOff, JWKS"
          aria-label="Search runbooks"
        />
      </label>
      <p className="muted" data-testid="runbook-count" aria-live="polite">
        {matches.length} of {runbooks.length} runbooks
      </p>
      {groups.length === 0 ? <div className="panel empty">No runbook mentions “{query}”.</div> : null}
      {groups.map((group) => (
        <section key={group.id}>
          <h2>{group.name}</h2>
          <div className="grid grid-3">
            {group.runbooks.map((r) => (
              <Link key={r.id} href={`/runbooks/${r.id}`} className="panel runbook-card">
                <strong>{r.title}</strong>
                <span className="muted">{r.symptom}</span>
                <small className="muted">{r.steps} steps</small>
              </Link>
            ))}
          </div>
        </section>
      ))}
    </>
  );
}

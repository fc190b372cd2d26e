"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useState, useTransition } from "react";
import { useCan } from "@/components/viewer";

export interface ScenarioRow {
  id: string;
  title: string;
  catalog: string | null;
  catalogTitle?: string;
  group: string;
  perNode: boolean;
  variants: string[];
  active: boolean;
  /** A fault of the API server itself (no catalog entry). */
  api: boolean;
  /** Happens once when injected (a reset, a restart) and is never in force. */
  oneShot: boolean;
  node?: string;
  variant?: string;
}

export function ScenarioTable({ rows, nodes, refreshSeconds }: { rows: ScenarioRow[]; nodes: string[]; refreshSeconds: number }) {
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  // Injecting and clearing are an admin's; others see what is in force.
  const canControl = useCan("admin");
  const [error, setError] = useState<string | null>(null);
  const [choice, setChoice] = useState<Record<string, { node?: string; variant?: string }>>({});

  // The reporters write every interval; keep "the cluster now" current without a manual reload.
  useEffect(() => {
    const timer = setInterval(() => router.refresh(), Math.max(2, refreshSeconds) * 1000);
    return () => clearInterval(timer);
  }, [router, refreshSeconds]);

  async function change(row: ScenarioRow, on: boolean) {
    setError(null);
    const response = await fetch(`/api/v1/demo/scenarios/${row.id}`, {
      method: on ? "POST" : "DELETE",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(on ? (choice[row.id] ?? {}) : {}),
    }).catch(() => undefined);
    if (!response) return setError("The server did not answer; is Faultline still running?");
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      return setError(body.error ?? `HTTP ${response.status}`);
    }
    startTransition(() => router.refresh());
  }

  const groups = [...new Set(rows.map((r) => r.group))];
  const active = rows.filter((r) => r.active);
  return (
    <div aria-busy={pending}>
      {error ? (
        <p className="callout" role="alert">
          {error}
        </p>
      ) : null}
      <div className="panel in-force" data-testid="in-force">
        <strong>In force:</strong>{" "}
        {active.length === 0 ? (
          <span className="muted">nothing; the simulated cluster is healthy.</span>
        ) : (
          active.map((row) => (
            <span key={row.id} className="chip">
              {row.title}
              {row.node ? ` (${row.node})` : ""}{" "}
              {canControl ? (
                <button type="button" className="linklike" onClick={() => change(row, false)} aria-label={`Clear ${row.title}`}>
                  ✕ clear
                </button>
              ) : null}
            </span>
          ))
        )}
      </div>
      {groups.map((group) => (
        <section key={group}>
          <h2>{group}</h2>
          <table className="data scenarios">
            <tbody>
              {rows
                .filter((r) => r.group === group)
                .map((row) => (
                  <tr key={row.id} data-scenario={row.id} className={row.active ? "scenario-on" : undefined}>
                    <td>
                      <strong>{row.title}</strong>
                      <span className="sub">
                        {row.catalog ? (
                          <Link href={`/catalog/${row.catalog}`}>{row.catalogTitle ?? row.catalog}</Link>
                        ) : row.api ? (
                          "No catalog entry: an API-server fault, to rehearse how Faultline's watches cope"
                        ) : (
                          "No catalog entry: a health-reporting condition"
                        )}
                        {" · "}
                        <code>{row.id}</code>
                      </span>
                    </td>
                    <td className="controls">
                      {canControl ? (
                        <>
                          {row.perNode ? (
                            <select
                              aria-label={`Node for ${row.title}`}
                              value={choice[row.id]?.node ?? row.node ?? nodes[Math.min(1, nodes.length - 1)]}
                              disabled={row.active}
                              onChange={(e) => setChoice({ ...choice, [row.id]: { ...choice[row.id], node: e.target.value } })}
                            >
                              {nodes.map((n) => (
                                <option key={n} value={n}>
                                  {n}
                                </option>
                              ))}
                            </select>
                          ) : null}
                          {row.variants.length > 0 ? (
                            <select
                              aria-label={`Variant of ${row.title}`}
                              value={choice[row.id]?.variant ?? row.variant ?? row.variants[0]}
                              disabled={row.active}
                              onChange={(e) => setChoice({ ...choice, [row.id]: { ...choice[row.id], variant: e.target.value } })}
                            >
                              {row.variants.map((v) => (
                                <option key={v} value={v}>
                                  {v}
                                </option>
                              ))}
                            </select>
                          ) : null}
                          {row.active ? (
                            <button type="button" className="button" onClick={() => change(row, false)} disabled={pending}>
                              Clear
                            </button>
                          ) : row.oneShot ? (
                            <button type="button" className="button button-primary" onClick={() => change(row, true)} disabled={pending}>
                              Do it now
                            </button>
                          ) : (
                            <button type="button" className="button button-primary" onClick={() => change(row, true)} disabled={pending}>
                              Inject
                            </button>
                          )}
                          {row.active ? <span className="badge badge-red">ON{row.node ? ` · ${row.node}` : ""}</span> : null}
                        </>
                      ) : null}
                    </td>
                  </tr>
                ))}
            </tbody>
          </table>
        </section>
      ))}
    </div>
  );
}

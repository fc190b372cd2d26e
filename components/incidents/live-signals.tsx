import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { STATE_TONE } from "@/components/health/kms-matrix-table";
import type { SignalLinks } from "@/lib/catalog/signal-links";
import type { IncidentDetailView } from "./types";

const RANK: Record<string, number> = { critical: 0, warning: 1, unknown: 2, ok: 3 };
type Current = IncidentDetailView["live"]["signals"][number];

/** The incident's signals as the monitor reads them now, one group per signal (its links once), worst first. */
export function LiveSignals({ detail, links, monitored }: { detail: IncidentDetailView; links: SignalLinks; monitored: boolean }) {
  const groups = new Map<string, Current[]>();
  for (const s of [...detail.live.signals].sort((a, b) => (RANK[a.state] ?? 4) - (RANK[b.state] ?? 4)))
    groups.set(s.signal, [...(groups.get(s.signal) ?? []), s]);
  const alerts = detail.members.filter((m) => m.source === "alert");
  return (
    <>
      {!monitored ? <p className="muted">Faultline does not watch cluster {detail.incident.cluster} itself; only alerts report on it.</p> : null}
      {monitored && groups.size === 0 ? (
        <p className="muted">None of its signals is reported right now (the cluster&apos;s last reading did not include them).</p>
      ) : null}
      <div className="signal-groups" data-testid="live-signals">
        {[...groups].map(([id, subjects]) => {
          const firing = subjects.filter((s) => s.state !== "ok");
          return (
            <div key={id} className="signal-group">
              <div>
                <Badge tone={STATE_TONE[subjects[0].state] ?? "grey"}>{subjects[0].state}</Badge> <code>{id}</code>{" "}
                <span className="muted small">
                  {firing.length} of {subjects.length} firing
                </span>
              </div>
              <ul className="plain signals">
                {subjects.map((s) => (
                  <li key={s.subject} data-signal={s.signal} data-state={s.state}>
                    <Badge tone={STATE_TONE[s.state] ?? "grey"}>{s.state}</Badge> <span className="muted">{s.subject}</span>: {s.detail}
                  </li>
                ))}
              </ul>
              {firing.length > 0 && links[id] ? (
                <div className="links">
                  {links[id].runbooks.map((r) => (
                    <Link key={r.id} className="chip chip-runbook" href={`/runbooks/${r.id}`}>
                      ▶ {r.title}
                    </Link>
                  ))}
                  {links[id].catalog.map((c) => (
                    <Link key={c.id} className="chip" href={`/catalog/${c.id}`}>
                      {c.title}
                    </Link>
                  ))}
                </div>
              ) : null}
            </div>
          );
        })}
        {alerts.length > 0 ? (
          <ul className="plain signals">
            {alerts.map((m) => (
              <li key={m.id} data-signal={m.signal} data-state={m.state}>
                <Badge tone={m.state === "ok" ? "green" : "red"}>alert {m.state === "ok" ? "resolved" : "firing"}</Badge> <code>{m.signal}</code>{" "}
                <span className="muted">{m.subject}</span>: {m.detail}
              </li>
            ))}
          </ul>
        ) : null}
      </div>
    </>
  );
}

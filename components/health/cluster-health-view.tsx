"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import type { SignalLinks } from "@/lib/catalog/signal-links";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { useLive } from "@/components/live/use-live";
import { clusterHealthViewQuery, HealthNotReadYet, type LiveHealthView } from "@/components/queries/health";
import { Badge } from "@/components/ui/badge";
import { ago } from "@/components/ui/time";
import { ComponentCards } from "./component-cards";
import { KmsMatrixTable } from "./kms-matrix-table";
import { STATE_TONE } from "./matrix-row";
import { KmsMetricsPanel } from "./kms-metrics-panel";
import { RefusedUnits } from "./refused-units";
import { ReplicaNote } from "./replica-note";
import { describeThrottled, ThrottledSources } from "./throttled-sources";

/**
 * One cluster's summary view (lib/signals/health-view.ts): every count, the rows and checks that need attention; the rest
 * on demand. `titled={false}` leaves out its name as a heading, for the cluster's own page, whose title it already is.
 */
export function ClusterHealthView({
  initial,
  links,
  pollMs,
  titled = true,
}: {
  initial: LiveHealthView;
  links: SignalLinks;
  pollMs: number;
  titled?: boolean;
}) {
  // Pushes of the summary view patch the cached one; polling stays as the fallback (slower while push works).
  const pushed = useLive([{ kind: "health", cluster: initial.name, view: "summary" }]);
  const query = useQuery({ ...clusterHealthViewQuery(initial.name), initialData: initial, refetchInterval: pushed ? pollMs * 5 : pollMs });
  const h = query.data;
  const version = h.version ?? 0;
  const reasons = h.reasons ?? [];
  const signals = [...h.signals].sort((a, b) => rank(a.state) - rank(b.state));
  const down = h.sources.filter((s) => !s.up);
  const throttled = describeThrottled(h.sources, h.checkedAt);
  const passing = h.signalTally.filter((t) => t.state === "ok").reduce((n, t) => n + t.count, 0);
  return (
    <section className="cluster" data-testid={`cluster-${h.name}`}>
      {titled ? (
        <h2>
          {h.name} {h.simulated ? <Badge tone="purple">simulated</Badge> : null}
        </h2>
      ) : null}
      <div className={`rollup rollup-${h.summary.state}`} data-testid="rollup" role="status">
        <strong>{h.summary.state === "ok" ? "KMS healthy" : h.summary.state === "degraded" ? "KMS degraded" : "KMS health unknown"}</strong>: {h.summary.line}
        {throttled.length > 0 ? (
          // A throttled source is not down, but what it says is not fresh either: the verdict must not read as live.
          <span data-testid="rollup-throttled"> (as last read: the API server is throttling Faultline, see below)</span>
        ) : null}
        {h.replica?.leaderSilentSince ? (
          // The leader stopped renewing: this verdict is its last reading, not a live one.
          <span data-testid="rollup-leader-silent"> (as last read by a leader replica that has gone silent, see below)</span>
        ) : null}
        {reasons.length > 1 ? (
          <ul>
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
            {h.reasonsTotal > reasons.length ? (
              <li className="muted">and {(h.reasonsTotal - reasons.length).toLocaleString("en")} more (see the matrix)</li>
            ) : null}
          </ul>
        ) : null}
      </div>
      {h.replica ? <ReplicaNote checkedAt={h.checkedAt} replica={h.replica} /> : null}
      <ComponentCards signals={h.signals} tally={h.signalTally} />
      <RefusedUnits health={h} />
      {query.isError ? (
        <p className="callout">
          {query.error instanceof HealthNotReadYet
            ? "Faultline restarted and has not read this cluster again yet"
            : "Faultline itself could not be reached just now"}
          ; showing what it last said ({ago(h.checkedAt, new Date().toISOString())}).
        </p>
      ) : null}
      {down.length > 0 ? (
        <div className="callout" data-testid="sources-down">
          {groupDown(down).map((g) => (
            <div key={g.key}>
              <strong>{g.names.join(", ")}</strong> {g.names.length === 1 ? "is" : "are"} down: stale since {g.since} ({ago(g.since, h.checkedAt)}); last error:{" "}
              {g.error}. {g.names.length === 1 ? "Its panels show" : "Their panels show"} the last known values.
            </div>
          ))}
        </div>
      ) : null}
      <ThrottledSources sources={h.sources} checkedAt={h.checkedAt} />
      <p className="muted">
        ClusterOperator kube-apiserver: Degraded={h.clusterOperator?.degraded ?? "?"} {h.clusterOperator?.reason ? `(${h.clusterOperator.reason})` : ""}
        {h.disagreement ? (
          <span className="badge badge-orange" style={{ marginLeft: 8 }}>
            disagrees with Faultline
          </span>
        ) : null}
      </p>
      {h.disagreement ? (
        <p className="callout" data-testid="disagreement">
          {h.disagreement}
        </p>
      ) : null}
      {h.matrix ? (
        <KmsMatrixTable
          matrix={h.matrix}
          checkedAt={h.checkedAt}
          testId="kms-matrix"
          caption={(h.serverMatrices ?? []).length > 0 ? "kube-apiserver (kubeapiservers CR)" : undefined}
          source={{ cluster: h.name, server: "kube-apiserver", version }}
        />
      ) : null}
      {(h.serverMatrices ?? []).map((m) => (
        <details key={m.server} className="server-matrix" open={m.matrix.rollup.degraded}>
          <summary>
            <Badge tone={m.matrix.rollup.degraded ? "red" : "green"}>{m.matrix.rollup.degraded ? "degraded" : "healthy"}</Badge> {m.server}:{" "}
            {m.matrix.inView.counts.total} replicas
          </summary>
          <KmsMatrixTable
            matrix={m.matrix}
            checkedAt={h.checkedAt}
            testId={`kms-matrix-${m.server}`}
            caption={`${m.server} (${m.cr} CR)`}
            source={{ cluster: h.name, server: m.server, version }}
          />
        </details>
      ))}
      <KmsMetricsPanel metrics={h.metrics} note={h.metricsNote} stale={h.sources.some((s) => s.name === "metrics" && !s.up)} checkedAt={h.checkedAt} />
      <h3>Signals</h3>
      <SignalList signals={signals.filter((x) => x.state !== "ok")} links={links} />
      <NotListed tally={h.signalTally} signals={h.signals} failing />
      <details className="passing">
        <summary>{passing.toLocaleString("en")} checks passing</summary>
        <SignalList signals={signals.filter((x) => x.state === "ok")} links={links} />
        <NotListed tally={h.signalTally} signals={h.signals} failing={false} />
      </details>
    </section>
  );
}

function SignalList({ signals, links }: { signals: ClusterHealth["signals"]; links: SignalLinks }) {
  return (
    <ul className="plain signals" data-testid="signals">
      {signals.map((s) => (
        <li key={`${s.id}/${s.subject}`} data-signal={s.id} data-subject={s.subject} data-state={s.state}>
          <Badge tone={STATE_TONE[s.state] ?? "grey"}>{s.state}</Badge> <code>{s.id}</code> <span className="muted">{s.subject}</span>: {s.detail}
          {s.state !== "ok" && links[s.id] ? (
            <div className="links">
              {links[s.id].catalog.map((c) => (
                <Link key={c.id} className="chip" href={`/catalog/${c.id}`}>
                  {c.title}
                </Link>
              ))}
              {links[s.id].runbooks.map((r) => (
                <Link key={r.id} className="chip chip-runbook" href={`/runbooks/${r.id}`}>
                  ▶ {r.title}
                </Link>
              ))}
            </div>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** The signals of each (id, state) counted but not in view: per-node checks of a large cluster. */
function NotListed({ tally, signals, failing }: { tally: LiveHealthView["signalTally"]; signals: ClusterHealth["signals"]; failing: boolean }) {
  const listed = new Map<string, number>();
  for (const s of signals) listed.set(`${s.id} ${s.state}`, (listed.get(`${s.id} ${s.state}`) ?? 0) + 1);
  const hidden = tally
    .filter((t) => (t.state !== "ok") === failing)
    .map((t) => ({ ...t, hidden: t.count - (listed.get(`${t.id} ${t.state}`) ?? 0) }))
    .filter((t) => t.hidden > 0);
  if (hidden.length === 0) return null;
  return (
    <ul className="plain muted" data-testid={failing ? "signals-not-listed" : "passing-not-listed"}>
      {hidden.map((t) => (
        <li key={`${t.id} ${t.state}`}>
          {t.hidden.toLocaleString("en")} {t.count > t.hidden ? "more " : ""}
          <code>{t.id}</code> {t.state} on other subjects, not listed (the matrix above shows each node)
        </li>
      ))}
    </ul>
  );
}

/** Sources that went down together for the same reason read as one line. */
function groupDown(down: ClusterHealth["sources"]) {
  const groups = new Map<string, { key: string; names: string[]; since?: string; error?: string }>();
  for (const s of down) {
    const key = `${s.downSince}|${s.lastError}`;
    const group = groups.get(key) ?? { key, names: [], since: s.downSince, error: s.lastError };
    group.names.push(s.name);
    groups.set(key, group);
  }
  return [...groups.values()];
}

function rank(state: string): number {
  return { critical: 0, warning: 1, unknown: 2, ok: 3 }[state] ?? 4;
}

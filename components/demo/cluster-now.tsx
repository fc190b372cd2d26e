import type { DemoSnapshot } from "@/lib/demo/snapshot";
import { Badge } from "@/components/ui/badge";

const TONE = { healthy: "green", unhealthy: "red", error: "red" } as const;

/** A compact reading of the simulated cluster straight from its objects (the ground truth), through Faultline's parsers; /health shows what the monitor makes of it. */
export function ClusterNow({ snapshot, intervalSeconds }: { snapshot: DemoSnapshot; intervalSeconds: number }) {
  const stale = 4 * intervalSeconds;
  return (
    <section className="panel" data-testid="cluster-now">
      <h2 style={{ marginTop: 0 }}>The cluster now</h2>
      <table className="data compact">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">KMS plugins (keyID: status)</th>
            <th scope="col">Report age</th>
          </tr>
        </thead>
        <tbody>
          {snapshot.nodes.map((node) => (
            <tr key={node.name} data-node={node.name}>
              <th scope="row">
                {node.name}
                {!node.present ? <span className="sub">node gone: orphaned report</span> : null}
              </th>
              <td data-label="KMS plugins">
                {node.reports.map((r) => (
                  <div key={r.keyID}>
                    <Badge tone={TONE[r.status as keyof typeof TONE] ?? "grey"}>
                      {r.keyID}: {r.status}
                    </Badge>{" "}
                    {r.detail ? <span className="sub">{r.detail}</span> : null}
                  </div>
                ))}
                {node.unparseable ? <code>{node.unparseable}</code> : null}
              </td>
              <td data-label="Report age">
                {node.ageSeconds === undefined ? (
                  "never"
                ) : node.ageSeconds < 0 ? (
                  <Badge tone="orange">{`${-node.ageSeconds}s in the future`}</Badge>
                ) : node.ageSeconds > stale ? (
                  <Badge tone="orange">{`${node.ageSeconds}s: stale`}</Badge>
                ) : (
                  `${node.ageSeconds}s`
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className="facts">
        <dt>OpenBao</dt>
        <dd data-testid="openbao-state">{snapshot.openbao}</dd>
        <dt>Transit key</dt>
        <dd>
          {snapshot.transit.missing
            ? "missing"
            : `v${snapshot.transit.latestVersion}, min_decryption_version ${snapshot.transit.minDecryptionVersion}${snapshot.transit.deletionAllowed ? ", deletion allowed" : ""}${snapshot.transit.softDeleted ? ", soft-deleted" : ""}`}
        </dd>
        <dt>Operator</dt>
        <dd>{snapshot.stack.operator}</dd>
        <dt>Webhook</dt>
        <dd>{snapshot.stack.webhook}</dd>
        <dt>eBPF agents</dt>
        <dd>{snapshot.stack.ebpf}</dd>
        <dt>Bridge / beacon</dt>
        <dd>
          {snapshot.stack.bridge} / {snapshot.stack.beacon}
        </dd>
      </dl>
    </section>
  );
}

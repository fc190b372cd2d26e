import { pageAccess } from "@/lib/auth/page";
import Link from "next/link";
import { connection } from "next/server";
import { ClusterSummaries } from "@/components/health/cluster-summaries";
import { loadHomePage } from "@/lib/views/home";

export default async function HomePage() {
  await pageAccess("viewer");
  await connection();
  const { counts, clusters } = loadHomePage();
  return (
    <>
      <h1>Faultline</h1>
      <p className="lead">
        When Kubernetes encryption at rest (a KMS v2 plugin on OpenBao Transit) or the secret-protection stack (webhook, PID-1 wrapper, eBPF agent, beacon,
        OpenBao) breaks, the failure is hard to see and can block the API server or lose data. Faultline catalogs every known failure mode with how to detect
        it, what prevents it and how to recover.
      </p>

      <div className="stats" data-testid="counts">
        <Link className="stat" href="/catalog?kind=failure-mode">
          <b>{counts.failureModes}</b>
          <span>failure modes</span>
        </Link>
        <Link className="stat" href="/catalog?startup=yes">
          <b>{counts.startupBlockers}</b>
          <span>block API-server start-up</span>
        </Link>
        <Link className="stat" href="/catalog?dataLoss=yes">
          <b>{counts.dataLossRisks}</b>
          <span>can or may lose data</span>
        </Link>
        <Link className="stat" href="/catalog?kind=acceptance-test">
          <b>{counts.acceptanceTests}</b>
          <span>acceptance tests</span>
        </Link>
        <div className="stat">
          <b>{counts.signals}</b>
          <span>live signals defined</span>
        </div>
      </div>

      <ClusterSummaries clusters={clusters} />

      <h2>Three ways in</h2>
      <div className="grid grid-3">
        <section className="panel">
          <h3>During an incident</h3>
          <p>
            Live per-node KMS plugin health, the API server&apos;s own check, OpenBao and the protection stack, each signal linked to its failure modes and
            runbooks; incidents opened from them and from your alerts, with the likely causes first.
          </p>
          <p>
            <Link className="button button-primary" href={clusters.length > 1 ? "/fleet" : "/health"}>
              {clusters.length > 1 ? "Fleet" : "Live health"}
            </Link>{" "}
            <Link className="button" href="/incidents">
              Incidents
            </Link>{" "}
            <Link href="/catalog?startup=yes">what blocks API-server start-up</Link>
          </p>
          <p className="muted">
            Rehearse first on the simulated cluster: <Link href="/demo">Demo cluster</Link>.
          </p>
        </section>
        <section className="panel">
          <h3>Reviewing an install</h3>
          <p>Blast-radius pages per component: if it breaks, what happens to the cluster, and what is safe to do.</p>
          <p>
            <Link className="button button-primary" href="/blast-radius">
              Blast radius
            </Link>{" "}
            <Link href="/blast-radius/backout">the backout procedure</Link>
          </p>
        </section>
        <section className="panel">
          <h3>On call at 3 a.m.</h3>
          <p>Guided runbooks: one question at a time, the command to run, the fix at the end; the link keeps your place.</p>
          <p>
            <Link className="button button-primary" href="/runbooks">
              Runbooks
            </Link>{" "}
            <span className="muted">{counts.runbooks} decision trees</span>
          </p>
        </section>
      </div>
      <p style={{ marginTop: "1.5rem" }}>
        <Link className="button button-primary" href="/catalog">
          Open the catalog ({counts.entries} entries)
        </Link>
      </p>
    </>
  );
}

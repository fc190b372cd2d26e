import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { connection } from "next/server";
import { ClusterHealthView } from "@/components/health/cluster-health-view";
import { Badge } from "@/components/ui/badge";
import { loadClusterPage } from "@/lib/views/fleet";

type Params = Promise<{ name: string }>;

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await pageAccess("viewer");
  const data = loadClusterPage((await params).name);
  return { title: data ? data.name : "Cluster not found" };
}

// No loading.tsx for this route: a loading state starts the response with 200 before notFound() runs, and a link
// to a cluster Faultline does not watch must answer 404.
export default async function ClusterPage({ params }: { params: Params }) {
  await pageAccess("viewer");
  await connection();
  const data = loadClusterPage((await params).name);
  if (!data) notFound();
  const { name, labels, health, links, pollSeconds, fleet } = data;
  const labelList = Object.entries(labels);
  return (
    <>
      <div className="breadcrumbs">{fleet ? <Link href="/fleet">Fleet</Link> : <Link href="/health">Live health</Link>} ›</div>
      <h1>
        {name} {health?.simulated ? <Badge tone="purple">simulated</Badge> : null}
      </h1>
      {labelList.length > 0 ? (
        <p className="cluster-labels" data-testid="cluster-labels">
          {labelList.map(([k, v]) => (
            <span key={k} className="chip">
              {k}={v}
            </span>
          ))}
        </p>
      ) : null}
      <p className="lead">
        Per-node, per-plugin KMS health, the API server&apos;s kms-providers check, OpenBao and the protection stack, updated every {pollSeconds} s.{" "}
        <Link href={`/incidents?cluster=${encodeURIComponent(name)}`}>Incidents in {name}</Link>
      </p>
      {health ? (
        <ClusterHealthView initial={health} links={links} pollMs={pollSeconds * 1000} titled={false} />
      ) : (
        <p className="callout">{name}: the first reading has not finished yet; reload in a moment.</p>
      )}
    </>
  );
}

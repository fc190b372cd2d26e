"use client";

import { useEffect, useState } from "react";
import type { ClusterHealth } from "@/lib/signals/cluster-health";
import { ago, utc } from "@/components/ui/time";

/**
 * On a follower replica: whose reading this is and how old (docs/replicas.md), ticking, so a leader that stopped
 * reading shows as an age that grows, and as "silent since" once it misses its lease renewals.
 */
export function ReplicaNote({ checkedAt, replica }: { checkedAt: string; replica: NonNullable<ClusterHealth["replica"]> }) {
  // The age needs the browser's clock: rendered after mount, so the server's HTML and the first render agree.
  const [now, setNow] = useState<number | null>(null);
  useEffect(() => {
    const first = setTimeout(() => setNow(Date.now()), 0);
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, []);
  const age = (iso: string) => (now === null ? utc(iso) : `${ago(iso, now)}, ${utc(iso)}`);
  if (replica.leaderSilentSince)
    return (
      <div className="callout replica-silent" role="alert" data-testid="leader-silent">
        <strong>The leader replica has been silent since {age(replica.leaderSilentSince)}.</strong> What this page shows is its last reading ({age(checkedAt)})
        and may be stale; another replica takes the cluster over once the leader&apos;s lease runs out, within seconds.
      </div>
    );
  return (
    <p className="muted replica-note" data-testid="replica-note">
      As read by the leader replica {age(checkedAt)}; this replica serves its reading.
    </p>
  );
}

import "server-only";
import type { ClusterConfig } from "@/lib/clusters/config";
import { healthEndpoint } from "@/lib/sources/probes/health-endpoint";
import { openBaoFetch } from "@/lib/sources/probes/openbao-http";
import type { BeaconReading } from "./read-beacon";

// The beacon relay, as the bridge sees it: the bridge's health endpoint (clusters file: beacon.healthUrl)
// answers 2xx while it reaches the beacon. Faultline never talks to the beacon itself.

/** Body kept from the bridge's answer: its first line is all a signal shows. */
const BODY_LIMIT = 4096;

/** The bridge's answer, or undefined when the cluster has no beacon.healthUrl. */
export async function probeBeacon(cluster: ClusterConfig): Promise<BeaconReading | undefined> {
  if (!cluster.beacon) return undefined;
  const answer = await healthEndpoint(new URL(cluster.beacon.healthUrl), openBaoFetch(cluster.beacon.caFile));
  return "unreachable" in answer ? answer : { status: answer.status, body: answer.text.slice(0, BODY_LIMIT) };
}

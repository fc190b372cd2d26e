import "server-only";
import { getDemoCluster } from "@/lib/demo/runtime";
import { watchesFleet } from "./fleet";

// What the site's navigation offers: the fleet view first when Faultline watches more than one cluster, and the
// demo cluster's page only while the demo cluster runs.

export async function loadNav(): Promise<{ fleet: boolean; demo: boolean }> {
  return { fleet: watchesFleet(), demo: (await getDemoCluster()) !== undefined };
}

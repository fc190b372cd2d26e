import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db/client";
import { AlertmanagerPayload } from "@/lib/incidents/alertmanager";
import { ingestAlertmanager } from "@/lib/incidents/ingest-alerts";
import { invalid, parseBody } from "@/lib/incidents/request";

const LIMIT = 1024 * 1024;
const Cluster = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/**
 * Alertmanager's webhook (docs/alertmanager.md). 200 once every alert of the delivery is committed; a 5xx
 * makes Alertmanager retry, and the retry adds nothing already recorded. ?cluster= names the cluster for
 * alerts without a cluster label.
 */
export async function POST(request: NextRequest) {
  const cluster = request.nextUrl.searchParams.get("cluster") ?? undefined;
  if (cluster !== undefined && !Cluster.test(cluster)) return invalid({ cluster: ["must be a lowercase cluster name"] });
  const body = await parseBody(request, AlertmanagerPayload, LIMIT);
  if ("response" in body) return body.response;
  const outcomes = await ingestAlertmanager(getDb(), body.data, { cluster });
  return NextResponse.json({ received: outcomes.length, outcomes });
}


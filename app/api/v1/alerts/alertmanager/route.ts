import { NextResponse, type NextRequest } from "next/server";
import { getDb } from "@/lib/db/client";
import { ALERTMANAGER_BODY_LIMIT } from "@/lib/incidents/alertmanager";
import { overBound, parseDelivery, readDeliveryBody, RETRY_AFTER } from "@/lib/incidents/alertmanager-delivery";
import { DeliveryFailed, ingestDelivery } from "@/lib/incidents/ingest-alerts";
import { invalid } from "@/lib/incidents/request";
import { changed, describeReport } from "@/lib/text/outside-text";

const Cluster = /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/;

/** A 503 with Retry-After, so Alertmanager keeps the group and sends it again (it gives a group up on a 4xx). */
function retryLater(error: string, extra: Record<string, unknown> = {}) {
  console.error(`[faultline] alertmanager webhook: ${error}`);
  return NextResponse.json({ error, retry: true, ...extra }, { status: 503, headers: { "retry-after": RETRY_AFTER } });
}

/**
 * Alertmanager's webhook (docs/alertmanager.md). 200 once every valid alert is committed, with one outcome per
 * alert (an invalid one is refused alone); a 503 past the size bounds or when the store fails makes Alertmanager
 * retry, and the retry adds nothing already recorded. ?cluster= names the cluster for alerts without a cluster label.
 */
export async function POST(request: NextRequest) {
  const cluster = request.nextUrl.searchParams.get("cluster") ?? undefined;
  if (cluster !== undefined && !Cluster.test(cluster)) return invalid({ cluster: ["must be a lowercase cluster name"] });
  const read = await readDeliveryBody(request, ALERTMANAGER_BODY_LIMIT);
  if ("tooLarge" in read) return retryLater(overBound(read.tooLarge).body.error);
  if ("notJson" in read) return invalid({ body: ["must be JSON"] });
  const parsed = await parseDelivery(read.value, cluster);
  if ("tooMany" in parsed) return retryLater(overBound({ alerts: parsed.tooMany }).body.error);
  if ("fields" in parsed) return invalid(parsed.fields);
  const { delivery } = parsed;
  for (const r of delivery.refused.slice(0, 20)) console.warn(`[faultline] alertmanager webhook: refused alert ${r.index} (${r.alert}, fingerprint ${r.fingerprint ?? "none"}): ${JSON.stringify(r.fields)}`);
  if (delivery.refused.length > 20) console.warn(`[faultline] alertmanager webhook: refused ${delivery.refused.length} alerts in all (first 20 logged)`);
  if (changed(delivery.cleaned)) console.warn(`[faultline] alertmanager webhook: cleaned the delivery's text: ${describeReport(delivery.cleaned)}`);
  try {
    const outcomes = await ingestDelivery(getDb(), delivery);
    const count = (result: string) => outcomes.filter((o) => o.result === result).length;
    const summary = { received: outcomes.length, recorded: count("recorded"), duplicate: count("duplicate"), unmatched: count("unmatched"), refused: count("refused"), truncatedAlerts: delivery.truncatedAlerts };
    if (delivery.truncatedAlerts > 0) console.warn(`[faultline] alertmanager webhook: Alertmanager left out ${delivery.truncatedAlerts} alerts of group ${delivery.groupKey} (max_alerts)`);
    return NextResponse.json({ ...summary, ...(changed(delivery.cleaned) ? { cleaned: describeReport(delivery.cleaned) } : {}), outcomes });
  } catch (error) {
    if (error instanceof DeliveryFailed) return retryLater(`${error.message}; Alertmanager will send the group again and the retry adds nothing twice`, { committed: error.committed });
    throw error;
  }
}

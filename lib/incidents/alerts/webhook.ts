import { Invalid, Unavailable } from "@/lib/errors";
import { changed, describeReport } from "@/lib/text/outside-text";
import { overBound, RETRY_AFTER } from "./alert-bounds";
import { parseDelivery } from "./alertmanager-delivery";
import { DeliveryFailed, ingestDelivery } from "./ingest-alerts";
import type { IncidentRulesConfig } from "@/lib/incident-rules-config";
import type { Db } from "../tx";

// One Alertmanager delivery received (docs/alertmanager.md): every valid alert committed, one outcome per
// alert (an invalid one is refused alone). Past the alert bound or when the store fails, "try again later",
// so Alertmanager keeps the group; its retry adds nothing already recorded.

const log = (line: string) => `[faultline] alertmanager webhook: ${line}`;

function retryLater(refusal: Unavailable): Unavailable {
  console.error(log(refusal.message));
  return refusal;
}

/**
 * `body` is the parsed JSON as sent; `cluster` names the cluster of alerts without a cluster label. The route and
 * the tests both come in here, so a test's delivery is checked and cleaned as a real one is.
 */
export async function receiveDelivery(db: Db, body: unknown, cluster: string | undefined, opts: { now?: Date; config?: IncidentRulesConfig } = {}) {
  const parsed = await parseDelivery(body, cluster);
  if ("tooMany" in parsed) throw retryLater(overBound({ alerts: parsed.tooMany }));
  if ("fields" in parsed) throw Invalid.fields(parsed.fields);
  const { delivery } = parsed;
  for (const r of delivery.refused.slice(0, 20))
    console.warn(log(`refused alert ${r.index} (${r.alert}, fingerprint ${r.alertFingerprint ?? "none"}): ${JSON.stringify(r.fields)}`));
  if (delivery.refused.length > 20) console.warn(log(`refused ${delivery.refused.length} alerts in all (first 20 logged)`));
  if (changed(delivery.cleaned)) console.warn(log(`cleaned the delivery's text: ${describeReport(delivery.cleaned)}`));
  try {
    const outcomes = await ingestDelivery(db, delivery, opts);
    const count = (result: string) => outcomes.filter((o) => o.result === result).length;
    const summary = {
      received: outcomes.length,
      recorded: count("recorded"),
      duplicate: count("duplicate"),
      unmatched: count("unmatched"),
      refused: count("refused"),
      truncatedAlerts: delivery.truncatedAlerts,
    };
    if (delivery.truncatedAlerts > 0) console.warn(log(`Alertmanager left out ${delivery.truncatedAlerts} alerts of group ${delivery.groupKey} (max_alerts)`));
    return { ...summary, ...(changed(delivery.cleaned) ? { cleaned: describeReport(delivery.cleaned) } : {}), outcomes };
  } catch (error) {
    if (!(error instanceof DeliveryFailed)) throw error;
    const message = `${error.message}; Alertmanager will send the group again and the retry adds nothing twice`;
    throw retryLater(new Unavailable(message, { retryAfterSeconds: Number(RETRY_AFTER), extra: { retry: true, committed: error.committed } }));
  }
}

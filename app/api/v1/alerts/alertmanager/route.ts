import { getDb } from "@/lib/db/client";
import { route } from "@/lib/http/route";
import { WebhookSearch } from "@/lib/incidents/schemas";
import { receiveDelivery } from "@/lib/incidents/alerts/webhook";
import { WEBHOOK_BODY } from "@/lib/incidents/alerts/webhook-body";

/**
 * Alertmanager's webhook (docs/alertmanager.md). 200 once every valid alert is committed, with one outcome per
 * alert (an invalid one is refused alone); a 503 past the size bounds or when the store fails makes Alertmanager
 * retry, and the retry adds nothing already recorded. ?cluster= names the cluster for alerts without a cluster label.
 */
export const POST = route({
  role: "machine",
  search: WebhookSearch,
  rawBody: WEBHOOK_BODY,
  run: ({ query, body }) => receiveDelivery(getDb(), body, query.cluster),
});

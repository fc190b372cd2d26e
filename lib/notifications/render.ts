import type { Prisma } from "@/lib/db/generated/client";
import { listRunbookLinksTo } from "@/lib/catalog/runbooks";
import { listMonitoredNames } from "@/lib/live/registry";
import type { NotificationKind } from "@/lib/notify-config";
import { cleanText } from "@/lib/text/outside-text";
import type { NotificationSnapshot } from "./payload";

// What a notification says, read from the database at its first attempt and then kept in the outbox row, so
// every re-delivery under one idempotency key carries the same body.

type Tx = Prisma.TransactionClient;

interface Row {
  incidentId: number;
  eventId: bigint;
  kind: string;
  idempotencyKey: string;
}

/** The suspects column is JSON written by the rules; anything else reads as no suspect. */
function topSuspects(stored: unknown): { id: string; title: string; confidence: number | null }[] {
  if (!Array.isArray(stored)) return [];
  return stored
    .slice(0, 3)
    .map((s) => s as { id?: unknown; title?: unknown; confidence?: unknown } | null)
    .filter((s): s is { id: string; title?: unknown; confidence?: unknown } => typeof s?.id === "string")
    .map((s) => ({ id: s.id, title: typeof s.title === "string" ? s.title : s.id, confidence: typeof s.confidence === "number" ? s.confidence : null }));
}

/** The runbook that reaches a failure mode in the fewest steps, opened at that step. */
function runbookFor(entryId: string, base: string): NotificationSnapshot["runbook"] {
  const links = listRunbookLinksTo(entryId).sort((a, b) => a.path.split(".").length - b.path.split(".").length);
  const best = links[0];
  if (!best) return null;
  return {
    id: best.runbook.id,
    title: best.runbook.title,
    link: `${base}/runbooks/${encodeURIComponent(best.runbook.id)}?path=${encodeURIComponent(best.path)}`,
  };
}

export async function renderSnapshot(tx: Tx, row: Row, base: string): Promise<NotificationSnapshot> {
  const incident = await tx.incident.findUniqueOrThrow({ where: { id: row.incidentId } });
  const event = await tx.incidentEvent.findUniqueOrThrow({ where: { id: row.eventId } });
  const suspects = topSuspects(incident.suspects).map((s) => ({
    id: s.id,
    title: cleanText(s.title, 300),
    confidence: s.confidence,
    link: `${base}/catalog/${encodeURIComponent(s.id)}`,
  }));
  return {
    kind: row.kind as NotificationKind,
    idempotencyKey: row.idempotencyKey,
    occurredAt: event.at.toISOString(),
    actor: cleanText(event.actor, 200),
    summary: cleanText(event.summary, 500),
    incident: {
      id: incident.id,
      title: cleanText(incident.title, 300),
      status: incident.status,
      severity: incident.severity,
      cluster: cleanText(incident.cluster, 200),
      link: `${base}/incidents/${incident.id}`,
      clusterLink: listMonitoredNames().includes(incident.cluster) ? `${base}/clusters/${encodeURIComponent(incident.cluster)}` : null,
    },
    suspects,
    runbook: suspects[0] ? runbookFor(suspects[0].id, base) : null,
  };
}

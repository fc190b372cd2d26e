import { z } from "zod";
import { changed, cleanValue, describeReport, emptyReport, type CleanReport } from "@/lib/text/outside-text";
import { fieldErrors } from "@/lib/errors";
import { getCatalog } from "@/lib/catalog/queries";
import { AlertmanagerAlert, AlertmanagerPayload, mapAlert, type MappedAlert } from "./alertmanager";
import { alertKnowledge } from "./alert-reading";
import { ALERTMANAGER_ALERT_LIMIT } from "./alertmanager-limits";

// One webhook delivery read and checked alert by alert: a bad alert is refused on its own and the others go
// on; only a body that is not Alertmanager's envelope at all is refused whole (docs/alertmanager.md).

/** The envelope without its alerts; each alert is checked on its own. */
const Envelope = AlertmanagerPayload.omit({ alerts: true }).extend({
  truncatedAlerts: z.number().int().min(0).default(0),
  alerts: z.array(z.unknown()).min(1, "must hold at least one alert"),
});

const YIELD_EVERY = 1_000;

export interface RefusedAlert {
  /** Position in the delivery's `alerts`. */
  index: number;
  alert: string;
  alertFingerprint: string | null;
  fields: Record<string, string[]>;
}

export interface Delivery {
  groupKey: string;
  receiver: string;
  status: "firing" | "resolved";
  truncatedAlerts: number;
  /** In delivery order, each with its position. */
  alerts: { index: number; alert: MappedAlert; cleaned: string }[];
  refused: RefusedAlert[];
  /** What cleaning changed across the delivery (NULs, control characters, clipped values). */
  cleaned: CleanReport;
}

const prefixed = (fields: Record<string, string[]>, prefix: string) =>
  Object.fromEntries(Object.entries(fields).map(([k, v]) => [k === "body" ? prefix : `${prefix}.${k}`, v]));
const text = (v: unknown) => (typeof v === "string" ? v : null);

function describeRaw(raw: unknown): { alert: string; alertFingerprint: string | null } {
  const r = (raw && typeof raw === "object" ? raw : {}) as { labels?: Record<string, unknown>; fingerprint?: unknown };
  const name = text(r.labels?.alertname)?.slice(0, 200) ?? "unnamed-alert";
  return { alert: name, alertFingerprint: text(r.fingerprint)?.slice(0, 200) ?? null };
}

/**
 * Checks a parsed body. `fields` when it is not Alertmanager's envelope (400); `tooMany` past the alert
 * bound (503); otherwise every alert either mapped or refused with its field errors.
 */
export async function parseDelivery(
  value: unknown,
  defaultCluster: string | undefined,
): Promise<{ delivery: Delivery } | { fields: Record<string, string[]> } | { tooMany: number }> {
  const raw = (value && typeof value === "object" && !Array.isArray(value) ? value : {}) as Record<string, unknown>;
  const count = Array.isArray(raw.alerts) ? raw.alerts.length : 0;
  if (count > ALERTMANAGER_ALERT_LIMIT) return { tooMany: count };
  const report = emptyReport();
  const { alerts: rawAlerts, ...rest } = raw;
  const envelope = Envelope.safeParse({ ...(cleanValue(rest, {}, report) as object), alerts: rawAlerts });
  const refused: RefusedAlert[] = [];
  const alerts: Delivery["alerts"] = [];
  const known = alertKnowledge(getCatalog());
  const items: unknown[] = Array.isArray(rawAlerts) ? rawAlerts : [];
  for (let index = 0; index < items.length; index++) {
    // Checking 100,000 alerts takes seconds: let other requests and the store's timers run in between.
    if (index % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
    const item = items[index];
    const own = emptyReport();
    const parsed = AlertmanagerAlert.safeParse(cleanValue(item, {}, own));
    for (const k of ["replaced", "clipped", "dropped"] as const) report[k] += own[k];
    if (!parsed.success) {
      refused.push({ index, ...describeRaw(item), fields: prefixed(fieldErrors(parsed.error), `alerts.${index}`) });
      continue;
    }
    if (envelope.success)
      alerts.push({ index, alert: mapAlert(parsed.data, envelope.data, defaultCluster, known), cleaned: changed(own) ? describeReport(own) : "" });
  }
  // Not the envelope at all: retrying cannot help, so the answer is a 400 listing every field, alerts too.
  if (!envelope.success) return { fields: { ...fieldErrors(envelope.error), ...Object.assign({}, ...refused.map((r) => r.fields)) } };
  const e = envelope.data;
  return { delivery: { groupKey: e.groupKey, receiver: e.receiver, status: e.status, truncatedAlerts: e.truncatedAlerts, alerts, refused, cleaned: report } };
}

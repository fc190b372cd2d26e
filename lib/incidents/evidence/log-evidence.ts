import { getCatalog } from "@/lib/catalog/queries";
import { classifyText } from "@/lib/diagnosis/classify";
import { NotFound } from "@/lib/errors";
import { announced } from "../members/announce";
import { refreshSuspects } from "../members/membership";
import { appendEvent, inTransaction, type Db, type Tx } from "../tx";
import { addEvidence, MAX_TEXT } from "./evidence";

// Log tails as an incident's evidence (docs/incidents.md, "What the logs say"): each source read is kept under its
// key (a container, its previous instance, a journal unit), so reading again replaces it; a source that could not be
// read is on the timeline with why, and its last good reading stays. The suspects are ranked again after.

/** One source as lib/sources/logs read it (the shape is repeated here: lib/incidents does not import the sources). */
export interface LogSourceReading {
  kind: "pod-log" | "journal";
  key: string;
  source: string;
  lines: string[];
  bytes: number;
  cut: boolean;
  refused?: string;
}

/** Who the logs are read for: the incident's cluster and the subjects its members name. */
export async function logTargets(db: Pick<Db, "incident">, incidentId: number): Promise<{ cluster: string; subjects: string[] }> {
  const incident = await db.incident.findUnique({
    where: { id: incidentId },
    select: { cluster: true, subject: true, members: { select: { subject: true } } },
  });
  if (!incident) throw new NotFound(`no incident ${incidentId}`);
  return { cluster: incident.cluster, subjects: [...new Set([incident.subject, ...incident.members.map((m) => m.subject)])] };
}

export interface LogsRecorded {
  sources: { key: string; source: string; bytes: number; lines: number; classes: string[]; refused?: string }[];
  bytes: number;
}

/** Stores what was read (and what could not be), then ranks the suspects again; one transaction, announced after. */
export async function recordLogReadings(db: Db, incidentId: number, readings: LogSourceReading[], actor: string, now: Date): Promise<LogsRecorded> {
  const sources = await announced(
    incidentId,
    inTransaction(db, async (tx) => {
      const out: LogsRecorded["sources"] = [];
      for (const r of readings) out.push(await recordOne(tx, incidentId, r, actor, now));
      await refreshSuspects(tx, incidentId, now, actor);
      return out;
    }),
  );
  return { sources, bytes: sources.reduce((sum, s) => sum + s.bytes, 0) };
}

async function recordOne(tx: Tx, incidentId: number, r: LogSourceReading, actor: string, now: Date): Promise<LogsRecorded["sources"][number]> {
  if (r.refused !== undefined) {
    await appendEvent(tx, {
      incidentId,
      at: now,
      kind: "logs_unread",
      actor,
      summary: `${r.source}: could not be read (${r.refused})`.slice(0, 300),
      payload: { key: r.key, kind: r.kind, source: r.source, reason: r.refused.slice(0, 500) },
    });
    return { key: r.key, source: r.source, bytes: 0, lines: 0, classes: [], refused: r.refused };
  }
  const kept = await addEvidence(tx, incidentId, { kind: r.kind, source: r.source, actor, texts: withWindow(r.lines), bytes: r.bytes, key: r.key }, now);
  return { key: r.key, source: r.source, bytes: r.bytes, lines: r.lines.length, classes: kept.classes.map((c) => c.id) };
}

/**
 * The lines, and the tail read as one text when that shows an error class no single line does: a restart is a
 * "Stopped" line and a "Started" line (systemd-unit-restarted), an ordering fault a start before another.
 */
function withWindow(lines: string[]): string[] {
  const classes = getCatalog().errorClasses;
  const single = new Set(lines.flatMap((l) => classifyText(l, classes).map((h) => h.id)));
  let window = "";
  for (let i = lines.length - 1; i >= 0 && window.length + lines[i].length < MAX_TEXT; i--) window = `${lines[i]}\n${window}`;
  const more = classifyText(window, classes).some((h) => !h.generic && !single.has(h.id));
  return more ? [...lines, window.trimEnd()] : lines;
}

export interface LogSourceView {
  key: string;
  kind: string;
  source: string;
  /** The last good reading, when there is one. */
  read?: { at: string; bytes: number; actor: string; lines: { text: string; classes: string[] }[]; classes: { id: string; title: string }[] };
  /** A later attempt that failed, with why. */
  refused?: { at: string; reason: string; actor: string };
}

/** Each log source of an incident: its last good reading (telling lines first) and a newer refusal if any. */
export async function listLogSources(
  db: Pick<Db, "incident" | "incidentEvidence" | "incidentEvent">,
  incidentId: number,
): Promise<{ sources: LogSourceView[]; bytes: number }> {
  const exists = await db.incident.findUnique({ where: { id: incidentId }, select: { id: true } });
  if (!exists) throw new NotFound(`no incident ${incidentId}`);
  const rows = await db.incidentEvidence.findMany({ where: { incidentId, kind: { in: ["pod-log", "journal"] } }, orderBy: { id: "desc" }, take: 100 });
  const refusals = await db.incidentEvent.findMany({ where: { incidentId, kind: "logs_unread" }, orderBy: { id: "desc" }, take: 200 });
  const classes = getCatalog().errorClasses;
  const titles = new Map(classes.map((c) => [c.id, c.title]));
  const byKey = new Map<string, LogSourceView>();
  for (const r of rows) {
    if (!r.key || byKey.has(r.key)) continue;
    const lines = r.texts.map((text) => ({
      text,
      classes: classifyText(text, classes)
        .filter((h) => !h.generic)
        .map((h) => h.id),
    }));
    byKey.set(r.key, {
      key: r.key,
      kind: r.kind,
      source: r.source,
      read: {
        at: r.at.toISOString(),
        bytes: r.bytes,
        actor: r.actor,
        lines: [...lines.filter((l) => l.classes.length > 0), ...lines.filter((l) => l.classes.length === 0)],
        classes: r.classes.map((id) => ({ id, title: titles.get(id) ?? id })),
      },
    });
  }
  for (const e of refusals) {
    const p = (e.payload ?? {}) as { key?: unknown; kind?: unknown; source?: unknown; reason?: unknown };
    if (typeof p.key !== "string" || typeof p.reason !== "string") continue;
    const known = byKey.get(p.key);
    if (known?.refused || (known?.read && known.read.at > e.at.toISOString())) continue;
    byKey.set(p.key, {
      key: p.key,
      kind: typeof p.kind === "string" ? p.kind : "pod-log",
      source: typeof p.source === "string" ? p.source : p.key,
      ...(known?.read ? { read: known.read } : {}),
      refused: { at: e.at.toISOString(), reason: p.reason, actor: e.actor },
    });
  }
  const sources = [...byKey.values()].sort(
    (a, b) => Number(Boolean(b.read?.classes.length)) - Number(Boolean(a.read?.classes.length)) || a.source.localeCompare(b.source),
  );
  return { sources, bytes: sources.reduce((sum, s) => sum + (s.read?.bytes ?? 0), 0) };
}

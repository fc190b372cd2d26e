import { getCatalog } from "@/lib/catalog/queries";
import { classifyText } from "@/lib/diagnosis/classify";
import type { EvidenceText } from "@/lib/diagnosis/rank";
import { cleanText } from "@/lib/text/outside-text";
import { hideSecrets } from "@/lib/text/secrets";
import { appendEvent, type Tx } from "../tx";

// Evidence an incident gathers besides its members' signals: output an on-call pastes, the tail of a pod's logs, a
// systemd unit's journal. Every text is cleaned (lib/text/outside-text.ts) and its secrets hidden before it is kept;
// each row is bounded; the suspects are ranked on the rows with the members (refreshSuspects), and each addition
// is on the timeline with what it showed.

export type EvidenceKind = "pasted" | "pod-log" | "journal";

/** Texts kept per row, and the length of each: the classifier reads the first 8 KiB of a text anyway. */
export const MAX_TEXTS = 40;
export const MAX_TEXT = 8_192;
/** Rows ranked per incident, newest first: a thousand pastes do not make a ranking slow. */
const RANKED_ROWS = 50;

export interface EvidenceInput {
  kind: EvidenceKind;
  /** As the page names it, and as "on …" reads in a suspect's reason: "the output pasted by alice". */
  source: string;
  actor: string;
  /** Raw texts (lines or blocks): cleaned, secrets hidden and bounded here. */
  texts: string[];
  /** Bytes read from the source before cleaning (a log read's cost). */
  bytes?: number;
  /** One container's or unit's reading: a second read with the same key replaces the first. */
  key?: string;
}

export interface KeptEvidence {
  texts: string[];
  classes: { id: string; title: string; quote: string }[];
  /** Secret-shaped values replaced by [hidden]. */
  hidden: number;
}

/**
 * What is kept of raw texts: each cleaned and its secrets hidden, blank ones dropped; texts that say the same are
 * kept once; at most MAX_TEXTS, those with an error class first so a long log's one telling line is not cut off.
 */
export function keepEvidence(raw: string[]): KeptEvidence {
  const classes = getCatalog().errorClasses;
  let hidden = 0;
  const seen = new Set<string>();
  const rows: { text: string; hits: ReturnType<typeof classifyText> }[] = [];
  for (const r of raw) {
    const hid = hideSecrets(cleanText(r, MAX_TEXT * 2));
    hidden += hid.hidden;
    const text = hid.text.trim().slice(0, MAX_TEXT);
    if (!text || seen.has(text)) continue;
    seen.add(text);
    rows.push({ text, hits: classifyText(text, classes) });
  }
  const telling = rows.filter((r) => r.hits.some((h) => !h.generic));
  const rest = rows.filter((r) => !telling.includes(r));
  const kept = [...telling, ...rest].slice(0, MAX_TEXTS);
  const found = new Map<string, { id: string; title: string; quote: string }>();
  for (const r of kept) for (const h of r.hits) if (!found.has(h.id)) found.set(h.id, { id: h.id, title: h.title, quote: h.quote });
  // Kept in the order they came, so a log still reads top to bottom.
  const order = new Map(rows.map((r, i) => [r.text, i]));
  kept.sort((a, b) => order.get(a.text)! - order.get(b.text)!);
  return { texts: kept.map((r) => r.text), classes: [...found.values()], hidden };
}

/** Stores one piece of evidence and records it on the timeline; the caller ranks the suspects again after. */
export async function addEvidence(tx: Tx, incidentId: number, input: EvidenceInput, now: Date): Promise<KeptEvidence & { id: number }> {
  const kept = keepEvidence(input.texts);
  const data = {
    kind: input.kind,
    source: input.source.slice(0, 300),
    actor: input.actor.slice(0, 200),
    texts: kept.texts,
    classes: kept.classes.map((c) => c.id),
    bytes: Math.max(0, Math.round(input.bytes ?? 0)),
    at: now,
  };
  const row = input.key
    ? await tx.incidentEvidence.upsert({
        where: { incidentId_key: { incidentId, key: input.key } },
        create: { incidentId, key: input.key, ...data },
        update: data,
      })
    : await tx.incidentEvidence.create({ data: { incidentId, ...data } });
  const said = kept.classes.length ? kept.classes.map((c) => c.title).join("; ") : "no error the catalog knows";
  await appendEvent(tx, {
    incidentId,
    at: now,
    kind: "evidence_added",
    actor: input.actor,
    summary: `${input.source}: ${said}`.slice(0, 300),
    payload: {
      evidenceId: row.id,
      kind: input.kind,
      source: data.source,
      lines: kept.texts.length,
      bytes: data.bytes,
      hidden: kept.hidden,
      classes: kept.classes,
    },
  });
  return { id: row.id, ...kept };
}

/** The texts of an incident's evidence, as the ranking reads them. */
export async function evidenceTexts(tx: Pick<Tx, "incidentEvidence">, incidentId: number): Promise<EvidenceText[]> {
  const rows = await tx.incidentEvidence.findMany({ where: { incidentId }, orderBy: { id: "desc" }, take: RANKED_ROWS, select: { source: true, texts: true } });
  return rows.flatMap((r) => r.texts.map((text) => ({ source: r.source, text })));
}

export interface EvidenceRow {
  id: number;
  kind: string;
  source: string;
  actor: string;
  texts: string[];
  classes: string[];
  bytes: number;
  at: string;
}

/** An incident's evidence for its page and API, newest first. */
export async function listEvidence(tx: Pick<Tx, "incidentEvidence">, incidentId: number): Promise<EvidenceRow[]> {
  const rows = await tx.incidentEvidence.findMany({ where: { incidentId }, orderBy: { id: "desc" }, take: 200 });
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    source: r.source,
    actor: r.actor,
    texts: r.texts,
    classes: r.classes,
    bytes: r.bytes,
    at: r.at.toISOString(),
  }));
}

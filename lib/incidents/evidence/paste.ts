import { getCatalog } from "@/lib/catalog/queries";
import { NotFound } from "@/lib/errors";
import { formatConfidence } from "@/lib/diagnosis/confidence";
import { lockIncident } from "../members/actions";
import { announced } from "../members/announce";
import { refreshSuspects } from "../members/membership";
import { readOr, readSuspects, type StoredSuspect } from "../stored";
import { inTransaction, type Db, type Tx } from "../tx";
import { addEvidence, listEvidence, MAX_TEXT, type EvidenceRow } from "./evidence";

// What the on-call pastes into an incident: the plugin's own doctor, probe or verify-key report, kubectl describe,
// a journal, an OpenBao error. It is kept as evidence (cleaned, secrets hidden, bounded: evidence.ts), the suspects
// are ranked again on it, and the answer says what it showed and whether it moved the first suspect.

/** Bytes of a paste's request body: a long journal or describe output fits, a log dump does not. */
export const PASTE_BODY_LIMIT = 256 * 1024;

// Where a line too long for one piece may be cut: after a separator, so a token or key is not split into a fragment
// short enough to escape hideSecrets (which hides whole credential-shaped runs).
const CUT_AFTER = /[\s,;"'}\]]/;

/** A line longer than a piece, cut after separators where it can be. */
function cutLine(line: string): string[] {
  const parts: string[] = [];
  let rest = line;
  while (rest.length > MAX_TEXT) {
    let at = MAX_TEXT;
    while (at > MAX_TEXT / 2 && !CUT_AFTER.test(rest[at - 1])) at--;
    if (at <= MAX_TEXT / 2) at = MAX_TEXT;
    parts.push(rest.slice(0, at));
    rest = rest.slice(at);
  }
  return [...parts, rest];
}

/**
 * A paste as the evidence keeps it: runs of whole lines of at most MAX_TEXT characters each, so a multi-line error
 * (OpenBao's "Error making API request" block, a journal's stop and start) is classified whole, and a PEM block is
 * never split (its secret is hidden as one).
 */
export function piecesOf(text: string): string[] {
  const pieces: string[] = [];
  let current: string[] = [];
  let size = 0;
  let inPem = false;
  const flush = () => {
    if (current.some((l) => l.trim())) pieces.push(current.join("\n"));
    current = [];
    size = 0;
  };
  for (const line of text.split(/\r?\n/).flatMap(cutLine)) {
    if (size + line.length + 1 > MAX_TEXT && !inPem) flush();
    current.push(line);
    size += line.length + 1;
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(line)) inPem = true;
    if (/-----END [A-Z ]*PRIVATE KEY-----/.test(line)) inPem = false;
  }
  flush();
  return pieces;
}

const countLines = (texts: string[]) => texts.reduce((n, t) => n + t.split("\n").filter((l) => l.trim()).length, 0);

export interface PasteResult {
  evidence: {
    id: number;
    /** Non-blank lines pasted, and those kept (at most 40 pieces of 8 KiB are). */
    lines: number;
    kept: number;
    /** Secret-shaped values replaced by [hidden]. */
    hidden: number;
    classes: { id: string; title: string; quote: string }[];
  };
  /** The first suspect before the paste and after it. */
  before: { id: string; title: string } | null;
  top: { id: string; title: string; confidence: string } | null;
  moved: boolean;
  /** What the paste showed and did, in one or two sentences. */
  summary: string;
}

const firstOf = async (tx: Tx, id: number): Promise<StoredSuspect[]> => {
  const row = await tx.incident.findUniqueOrThrow({ where: { id }, select: { suspects: true } });
  return readOr(() => readSuspects(row.suspects, id), []).value;
};

function summarize(r: Omit<PasteResult, "summary">): string {
  const found = r.evidence.classes.length
    ? `Found ${r.evidence.classes.map((c) => `${c.title} ("${c.quote}")`).join("; ")}.`
    : `No error the catalog knows in these ${r.evidence.lines} line${r.evidence.lines === 1 ? "" : "s"}; it is on the timeline.`;
  const hidden = r.evidence.hidden ? ` ${r.evidence.hidden} secret${r.evidence.hidden === 1 ? " was" : "s were"} hidden.` : "";
  if (!r.top) return `${found}${hidden} No suspect yet.`;
  if (r.moved) return `${found}${hidden} This moved ${r.top.title} to the top${r.before ? ` (it was ${r.before.title})` : ""}.`;
  return `${found}${hidden} ${r.top.title} stays first (${r.top.confidence}).`;
}

/** Adds pasted output to an incident and ranks its suspects again, in one transaction under the incident's lock. */
export async function addPastedEvidence(db: Db, id: number, input: { actor: string; text: string }, now: Date = new Date()): Promise<PasteResult> {
  return announced(
    id,
    inTransaction(db, async (tx) => {
      await lockIncident(tx, id);
      const before = (await firstOf(tx, id))[0];
      const added = await addEvidence(
        tx,
        id,
        {
          kind: "pasted",
          source: `the output pasted by ${input.actor}`,
          actor: input.actor,
          texts: piecesOf(input.text),
          bytes: Buffer.byteLength(input.text),
        },
        now,
      );
      await refreshSuspects(tx, id, now, input.actor);
      const after = await firstOf(tx, id);
      const top = after[0];
      const result = {
        evidence: { id: added.id, lines: countLines([input.text]), kept: countLines(added.texts), hidden: added.hidden, classes: added.classes },
        before: before ? { id: before.id, title: before.title } : null,
        top: top ? { id: top.id, title: top.title, confidence: formatConfidence(top.confidence ?? 0, after.length) } : null,
        moved: !!top && top.id !== before?.id,
      };
      return { ...result, summary: summarize(result) };
    }),
  );
}

export type ListedEvidence = Omit<EvidenceRow, "classes"> & { classes: { id: string; title: string }[] };

/** An incident's evidence for its page, newest first, each class with its title. */
export async function listIncidentEvidence(db: Db, id: number): Promise<{ evidence: ListedEvidence[] }> {
  if (!(await db.incident.findUnique({ where: { id }, select: { id: true } }))) throw new NotFound(`no incident ${id}`);
  const titles = new Map(getCatalog().errorClasses.map((c) => [c.id, c.title]));
  const rows = await listEvidence(db, id);
  return { evidence: rows.map((r) => ({ ...r, classes: r.classes.map((c) => ({ id: c, title: titles.get(c) ?? c })) })) };
}

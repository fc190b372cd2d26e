import { z } from "zod";
import { DATA_LOSS_LEVELS, STARTUP_LEVELS } from "@/lib/catalog/schema";
import type { Undecided } from "@/lib/diagnosis/confidence";
import type { Suspect } from "@/lib/diagnosis/rank";
import type { Suggestion } from "./suspects/suggest";

// The JSON columns of incidents and runbook sessions, read back through their schemas (never by cast): a row that
// does not parse is a StoredRowError naming the row and the field, not a crash deep inside a page.

/** A stored JSON value that does not have the shape Faultline writes. */
export class StoredRowError extends Error {
  constructor(
    /** "incident 12 suspects", "runbook session 3 steps" */
    readonly row: string,
    readonly issue: z.core.$ZodIssue,
  ) {
    super(`${row} could not be read: ${issue.path.length ? issue.path.join(".") : "(the value)"}: ${issue.message}`);
    this.name = "StoredRowError";
  }
}

function read<T>(schema: z.ZodType<T>, json: unknown, row: string): T {
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new StoredRowError(row, parsed.error.issues[0]);
  return parsed.data;
}

type Legacy = "confidence" | "supports" | "contradicts";
type StoredUndecided = Omit<Undecided, "runbook"> & { runbook?: Omit<NonNullable<Undecided["runbook"]>, "path"> & { path?: string[] } };

/** A suspect as stored: the domain Suspect, where rows ranked before the diagnosis gave confidences lack those fields. */
export type StoredSuspect = Omit<Suspect, Legacy | "undecided"> & Partial<Pick<Suspect, Legacy>> & { undecided?: StoredUndecided };

export const StoredSuspect: z.ZodType<StoredSuspect> = z.object({
  id: z.string(),
  title: z.string(),
  score: z.number(),
  confidence: z.number().optional(),
  reason: z.string(),
  supports: z.array(z.string()).optional(),
  contradicts: z.array(z.string()).optional(),
  signals: z.array(z.string()),
  startupBlock: z.enum(STARTUP_LEVELS),
  dataLoss: z.enum(DATA_LOSS_LEVELS),
  linkedBy: z.array(z.string()),
  undecided: z
    .object({
      with: z.string(),
      withTitle: z.string(),
      likely: z.boolean().optional(),
      question: z.string(),
      runbook: z.object({ id: z.string(), title: z.string(), node: z.string(), path: z.array(z.string()).optional() }).optional(),
      options: z.array(z.object({ label: z.string(), to: z.string().optional(), leadsTo: z.array(z.string()) })).optional(),
    })
    .optional(),
  facets: z.array(z.object({ id: z.string(), title: z.string(), confidence: z.number(), reason: z.string() })).optional(),
  rootCause: z.object({ id: z.string(), title: z.string(), reason: z.string() }).optional(),
});

const Suggested: z.ZodType<Suggestion> = z.object({
  answer: z.string(),
  signal: z.string(),
  state: z.string(),
  evidence: z.array(z.object({ subject: z.string(), state: z.string(), detail: z.string(), evidence: z.unknown() })),
});

/** One answered step of a runbook session, with what live data suggested at that moment. */
export const RecordedStep = z.object({
  index: z.number().int(),
  node: z.string(),
  question: z.string(),
  answer: z.string().nullable(),
  to: z.string().nullable(),
  suggested: Suggested.nullable(),
  /** null when there was no suggestion. */
  followedSuggestion: z.boolean().nullable(),
  evidence: z.unknown(),
  note: z.string().nullable(),
  actor: z.string(),
  at: z.string(),
});
export type RecordedStep = z.infer<typeof RecordedStep>;

/** A session's path: the node ids walked, the first the runbook's start. */
const SessionPath = z.array(z.string()).min(1);

/** An incident's stored ranking, best first (none when the column is empty). */
export function readSuspects(json: unknown, incidentId: number): StoredSuspect[] {
  return json == null ? [] : read(z.array(StoredSuspect), json, `incident ${incidentId} suspects`);
}

export function readSteps(json: unknown, sessionId: number): RecordedStep[] {
  return read(z.array(RecordedStep), json, `runbook session ${sessionId} steps`);
}

export function readPath(json: unknown, sessionId: number): string[] {
  return read(SessionPath, json, `runbook session ${sessionId} path`);
}

/** For readers that can go on without the value (a page, a suggestion): it, or `fallback` and the reason. */
export function readOr<T>(reader: () => T, fallback: T): { value: T; unreadable?: string } {
  try {
    return { value: reader() };
  } catch (error) {
    if (!(error instanceof StoredRowError)) throw error;
    console.error(`[faultline] ${error.message}`);
    return { value: fallback, unreadable: error.message };
  }
}

/** What a JSON column is given: the typed values as they are (they read back through the schemas above). */
export const suspectsJson = (suspects: StoredSuspect[]): object[] => suspects;
export const stepsJson = (steps: RecordedStep[]): object[] => steps;

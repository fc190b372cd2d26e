import { z } from "zod";
import { SIGNAL_ID, SLUG } from "@/lib/content/ids";
import type { BlastRadiusPage } from "@/lib/blast-radius/schema";
import type { Runbook } from "@/lib/runbooks/schema";
import type { AlertEntry } from "./alert-catalog";
import type { RootCauseGroup } from "./root-causes";

// The one schema for catalog content. Ids are public, stable API: alerts, links and incidents use them.


const Slug = z.string().regex(SLUG, "must be a lowercase slug (letters, digits, single hyphens)");
const Prose = z.string().trim().min(3, "must say something (at least 3 characters)");
const Cell = z.string().trim().min(1, "must not be empty");

export const CATEGORIES = [
  { id: "kms-bootstrap-runtime", name: "KMS bootstrap and runtime" },
  { id: "openbao-transit", name: "OpenBao and Transit" },
  { id: "transit-key-material", name: "Transit key material" },
  { id: "auth-issuer", name: "Authentication and issuer state" },
  { id: "kms-contract-registry", name: "KMS contract, registry and decrypt" },
  { id: "encryption-scope-migration", name: "Encryption scope and migration" },
  { id: "confidential-workload", name: "Confidential workload" },
  { id: "secret-protection-stack", name: "Secret-protection stack" },
] as const;
export const CategoryId = z.enum(CATEGORIES.map((c) => c.id) as [string, ...string[]]);
export type CategoryId = (typeof CATEGORIES)[number]["id"];

export const STARTUP_LEVELS = ["yes", "possible", "affected-data", "no"] as const;
export const DATA_LOSS_LEVELS = ["yes", "possible", "confidentiality-loss", "no"] as const;

export const StartupBlock = z.strictObject({
  level: z.enum(STARTUP_LEVELS),
  seed: Cell.describe("the seed's cell verbatim, qualifier kept"),
});
export type StartupBlock = z.infer<typeof StartupBlock>;

export const DataLoss = z.strictObject({
  level: z.enum(DATA_LOSS_LEVELS),
  seed: Cell,
});
export type DataLoss = z.infer<typeof DataLoss>;

const EntryBase = z.strictObject({
  id: Slug,
  title: Prose,
  sourceRow: Prose,
  components: z.array(Slug).min(1, "name at least one component"),
  related: z.array(Slug).default([]),
  runbooks: z.array(Slug).default([]),
  blastRadius: z.array(Slug).default([]),
  notes: Prose.optional(),
});

/** How the diagnosis weighs evidence for this failure mode (docs/diagnosis.md). */
export const DiagnosisInput = z.strictObject({
  /** Error classes (catalog/error-classes.yaml) whose text points at this failure mode. */
  supports: z.array(Slug).default([]),
  /** Error classes that fit it but do not single it out (a socket that is missing fits several causes). */
  hints: z.array(Slug).default([]),
  /** Error classes whose text argues against it. */
  contradicts: z.array(Slug).default([]),
  /** Signals that fire whenever this is the cause: each one seen healthy argues against it. */
  needs: z.array(z.string().regex(SIGNAL_ID, "must be a signal id like openbao.sealed")).default([]),
  /** Failure modes whose symptoms this root cause produces: their evidence counts for it too. */
  explains: z.array(Slug).default([]),
  /** What it means when one of its signals flaps (fails and recovers again and again): a crash loop flaps, a dead plugin does not. */
  flapping: z.enum(["supports", "hints", "contradicts"]).optional(),
  /** The check that confirms it, asked when the evidence cannot tell it from a neighbour. */
  question: Prose.optional(),
});
export type Diagnosis = z.infer<typeof DiagnosisInput>;

export const FailureModeInput = EntryBase.extend({
  kind: z.literal("failure-mode"),
  cause: Prose,
  impact: Prose,
  detection: Prose,
  control: Prose,
  recovery: Prose,
  startupBlock: StartupBlock,
  dataLoss: DataLoss,
  signals: z.array(z.string().regex(SIGNAL_ID, "must be a signal id like kms.plugin.unhealthy")).default([]),
  raisedBy: Prose.optional(),
  diagnosis: DiagnosisInput.optional(),
});

export const AcceptanceTestInput = EntryBase.extend({
  kind: z.literal("acceptance-test"),
  expected: Prose,
  evidence: Prose,
});

export const EntryInput = z.discriminatedUnion("kind", [FailureModeInput, AcceptanceTestInput], {
  error: (issue) =>
    issue.code === "invalid_union" ? 'kind must be "failure-mode" or "acceptance-test"' : undefined,
});

/** A failure-mode file; its entries are validated one by one (EntryInput) so errors stay local. */
export const CatalogFileInput = z.strictObject({
  category: CategoryId,
  source: z.strictObject({
    seed: z.string().regex(/^\d{3}$/, 'must be a seed number like "000"'),
    table: Prose,
  }),
  entries: z.array(z.unknown()).min(1, "a catalog file needs at least one entry"),
});
export type CatalogFileInput = z.infer<typeof CatalogFileInput>;

export const SignalDefinitionInput = z.strictObject({
  id: z.string().regex(SIGNAL_ID, "must be a dotted id like kms.plugin.unhealthy"),
  title: Prose,
  description: Prose,
  components: z.array(Slug).min(1),
});
export const SignalDefinitionsFileInput = z.array(SignalDefinitionInput);
export type SignalDefinition = z.infer<typeof SignalDefinitionInput>;

/** A typed error class: what a detail, condition message or probe body says, recognised by its real wording. */
export const ErrorClassInput = z.strictObject({
  id: Slug,
  title: Prose,
  /** Only a wrapper around the real error ("rpc error: code = Unavailable"): weak evidence. */
  generic: z.boolean().default(false),
  /** Regular expressions, applied case-insensitively. */
  match: z.array(z.string().min(3)).min(1, "a class needs at least one pattern"),
  examples: z
    .array(z.strictObject({ text: Cell, from: Prose, alsoMatches: z.array(Slug).default([]) }))
    .min(1, "a class needs at least one real example"),
  notMatch: z.array(Cell).default([]),
  /**
   * A program that exits on the error this class wraps (the plugin giving up at start-up) looks like these failure
   * modes meanwhile (not running, its socket gone): the cause the same text names accounts for them, as one answer.
   */
  exitShowsAs: z.array(Slug).default([]),
});
export const ErrorClassesFileInput = z.array(ErrorClassInput);
export type ErrorClassInput = z.infer<typeof ErrorClassInput>;
export type ErrorClass = Omit<ErrorClassInput, "match"> & { match: string[]; patterns: RegExp[] };

export const ComponentInput = z.strictObject({
  id: Slug,
  name: Prose,
  summary: Prose,
});
export const ComponentsFileInput = z.array(ComponentInput);
export type Component = z.infer<typeof ComponentInput>;

export interface SourceRef {
  seed: string;
  table: string;
  file: string;
  line: number;
}

type FailureModeFields = z.infer<typeof FailureModeInput>;
type AcceptanceTestFields = z.infer<typeof AcceptanceTestInput>;
export type FailureMode = FailureModeFields & { category: CategoryId; source: SourceRef };
export type AcceptanceTest = AcceptanceTestFields & { category: CategoryId; source: SourceRef };
export type CatalogEntry = FailureMode | AcceptanceTest;

export interface Catalog {
  entries: CatalogEntry[];
  signals: SignalDefinition[];
  components: Component[];
  errorClasses: ErrorClass[];
  /** The alerts people already run, mapped to signals and to what their labels say (catalog/alerts.yaml). */
  alerts: AlertEntry[];
  /** Failure modes that describe one world from different views (catalog/root-causes.yaml). */
  rootCauses: RootCauseGroup[];
  runbooks: Runbook[];
  blastRadius: BlastRadiusPage[];
  /** sha256 of every content file, so a running server can say which revision it serves. */
  hash: string;
}

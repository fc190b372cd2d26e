import { quote } from "@/lib/sources/describe-input";

// What a Kubernetes reader found wrong in an object, as a value: where (subject, a field path such as
// "status.conditions[3]") and what (kind and fields). Code sorts problems by kind; the sentence a person
// reads is made from the value by describeReadProblem, only where it is shown.

export type ReadProblem =
  /** A field holds the wrong JSON type: "status is a string, not an object". */
  | { kind: "wrong-type"; subject: string; fields: { found: string; expected: "an object" | "an array" | "a count" } }
  /** The object is of another kind than the reader reads: "kind is \"Deployment\", expected \"DaemonSet\"". */
  | { kind: "wrong-kind"; subject: string; fields: { kind: string | null; found: string; expected: string } }
  /** A field failed validation; `issue` names the field ("status.numberAvailable: ..."). */
  | { kind: "invalid-field"; subject: string; fields: { issue: string } }
  /** A list is longer than its CRD allows; its entries are still read. */
  | { kind: "too-many-entries"; subject: string; fields: { count: number; max: number } }
  /** An entry (or an optional block) failed validation and was skipped. */
  | { kind: "entry-skipped"; subject: string; fields: { list: string; index: number | null; type: string | null; name?: string | null; issues: string } }
  /** An optional block is not an object and was skipped. */
  | { kind: "entry-wrong-type"; subject: string; fields: { found: string; expected: "an object" } }
  /** A list-map entry repeats the key of an earlier one (a condition type, or a nodeName and keyID); the first wins. */
  | {
      kind: "entry-repeats";
      subject: string;
      fields: { list: string; index: number; first: number; type: string | null; nodeName: string | null; keyID: string | null };
    }
  /** A KMSHealthReporter_<node> condition whose message could not be read; subject is the condition type. */
  | { kind: "message-unparseable"; subject: string; fields: { node: string; error: string } }
  /** A webhook that names neither a Service nor a URL to call. */
  | { kind: "webhook-no-target"; subject: string; fields: { name: string | null } }
  /** A webhook whose caBundle holds a certificate that cannot be read. */
  | { kind: "webhook-ca-unreadable"; subject: string; fields: { name: string | null; reason: string } };

export type ReadProblemKind = ReadProblem["kind"];

/** The one sentence for a problem, as pages, notes and rollup reasons show it. */
export function describeReadProblem(problem: ReadProblem): string {
  switch (problem.kind) {
    case "wrong-type":
      return `${problem.subject} is ${problem.fields.found}, not ${problem.fields.expected}`;
    case "wrong-kind":
      return `kind is ${problem.fields.kind !== null ? quote(problem.fields.kind) : problem.fields.found}, expected ${quote(problem.fields.expected)}`;
    case "invalid-field":
      return problem.fields.issue;
    case "too-many-entries":
      return `${problem.subject} has ${problem.fields.count} entries; the CRD allows at most ${problem.fields.max}`;
    case "entry-skipped":
      return `${problem.subject}${typeLabel(problem.fields.type)}${nameLabel(problem.fields.name ?? null)} skipped: ${problem.fields.issues}`;
    case "entry-wrong-type":
      return `${problem.subject} skipped: it is ${problem.fields.found}, not ${problem.fields.expected}`;
    case "entry-repeats": {
      const { list, first, type, nodeName, keyID } = problem.fields;
      const key = type !== null ? "type" : `nodeName ${quote(nodeName ?? "")} keyID ${quote(keyID ?? "")}`;
      return `${problem.subject}${typeLabel(type)} skipped: ${key} repeats ${list}[${first}]`;
    }
    case "message-unparseable":
      return `condition ${problem.subject}: message is unparseable: ${problem.fields.error}`;
    case "webhook-no-target":
      return `${problem.subject}${nameLabel(problem.fields.name)}: clientConfig has neither service nor url`;
    case "webhook-ca-unreadable":
      return `${problem.subject}${nameLabel(problem.fields.name)}: ${problem.fields.reason}`;
  }
}

function typeLabel(type: string | null): string {
  return type === null ? "" : ` (type ${quote(type)})`;
}

function nameLabel(name: string | null): string {
  return name === null ? "" : ` (${quote(name)})`;
}

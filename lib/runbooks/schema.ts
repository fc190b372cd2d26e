import { z } from "zod";
import { SIGNAL_ID, SLUG } from "@/lib/content/ids";
import type { Flowchart } from "./flowchart";

const Slug = z.string().regex(SLUG, "must be a lowercase slug (letters, digits, single hyphens)");
const Prose = z.string().trim().min(3, "must say something (at least 3 characters)");

export const CommandInput = z.strictObject({
  label: Prose.optional(),
  command: z.string().trim().min(1, "must not be empty"),
});
export type Command = z.infer<typeof CommandInput>;

export const StepInput = z.strictObject({
  kind: z.enum(["action", "diagnosis"], { message: "kind must be action or diagnosis" }).optional(),
  text: Prose.optional(),
  commands: z.array(CommandInput).default([]),
  expect: Prose.optional(),
  signal: z.string().regex(SIGNAL_ID, "must be a signal id like openbao.sealed").optional(),
  catalog: z.array(Slug).default([]),
  runbooks: z.array(Slug).default([]),
});

export const RunbookInput = z.strictObject({
  id: Slug,
  title: Prose,
  symptom: Prose,
  components: z.array(Slug).min(1, "name at least one component"),
  source: z.strictObject({
    seed: z.string().regex(/^\d{3}$/, 'must be a seed number like "004"'),
    section: Prose.optional(),
  }),
  quickChecks: z.array(CommandInput).default([]),
  flowchart: z.string().min(1, "must hold a Mermaid flowchart"),
  steps: z.record(z.string(), StepInput).default({}),
});
export type RunbookInput = z.infer<typeof RunbookInput>;

export type NodeKind = "start" | "question" | "step" | "action" | "diagnosis";

export interface RunbookNode {
  id: string;
  kind: NodeKind;
  /** Label as drawn, <br/> removed */
  label: string;
  text?: string;
  commands: Command[];
  expect?: string;
  signal?: string;
  catalog: string[];
  runbooks: string[];
  /** Labelled answers of a question, or the single way on of a step (label may be empty). */
  next: { label?: string; to: string }[];
}

export interface Runbook {
  id: string;
  title: string;
  symptom: string;
  components: string[];
  source: { seed: string; section?: string; file: string; line: number };
  quickChecks: Command[];
  flowchart: string;
  chart: Flowchart;
  root: string;
  nodes: RunbookNode[];
}

import { z } from "zod";
import { SLUG } from "@/lib/content/ids";
import { CommandInput } from "@/lib/runbooks/schema";

const Slug = z.string().regex(SLUG, "must be a lowercase slug (letters, digits, single hyphens)");
const Prose = z.string().trim().min(2, "must say something");

const Links = {
  catalog: z.array(Slug).default([]),
  runbooks: z.array(Slug).default([]),
};

export const SettingInput = z.strictObject({
  name: Prose,
  helmValue: Prose.optional(),
  default: Prose,
  recommendation: Prose,
});

export const MatrixInput = z.strictObject({
  columns: z.array(Prose).min(2, "a matrix needs at least two columns"),
  rows: z.array(z.strictObject({ cells: z.array(z.string().trim().min(1, "must not be empty")), ...Links })).min(1),
});

export const ScenarioInput = z.strictObject({
  scenario: Prose,
  behaviour: Prose,
  ...Links,
});

export const SectionInput = z.strictObject({
  title: Prose,
  text: Prose.optional(),
  list: z.array(Prose).optional(),
  steps: z.array(Prose).optional(),
  settings: z.array(SettingInput).optional(),
  matrix: MatrixInput.optional(),
  scenarios: z.array(ScenarioInput).optional(),
  commands: z.array(CommandInput).optional(),
  notes: Prose.optional(),
});
export type Section = z.infer<typeof SectionInput>;

export const BlastRadiusInput = z.strictObject({
  id: Slug,
  title: Prose,
  keyProperty: Prose,
  ifItBreaks: Prose,
  dependsOn: z.array(Slug).default([]),
  source: z.strictObject({ seed: z.string().regex(/^\d{3}$/, 'must be a seed number like "002"'), section: Prose.optional() }),
  sections: z.array(SectionInput).min(1, "a page needs at least one section"),
});
export type BlastRadiusPage = z.infer<typeof BlastRadiusInput> & { file: string };

export const BACKOUT_ID = "backout";

import { z } from "zod";
import { SLUG } from "@/lib/content/ids";
import { validateAt, validateYaml, type ContentIssue, type YamlSource } from "@/lib/content/yaml-source";

// catalog/root-causes.yaml: failure modes that describe one world from different views, grouped with the reason
// (docs/catalog-format.md). The diagnosis answers with a group's root and lists the facets the evidence shows.

const Prose = z.string().trim().min(3, "must say something (at least 3 characters)");
const Mode = z.string().regex(SLUG, "must be a failure-mode id");

export const RootCauseGroupInput = z.strictObject({
  id: z.string().regex(SLUG, "must be a lowercase slug (letters, digits, single hyphens)"),
  title: Prose,
  /** What to fix: the failure modes one of which is the cause. */
  roots: z.array(Mode).min(1, "name at least one root"),
  /** How other parts of the stack see the same outage. */
  facets: z.array(Mode).min(1, "name at least one facet"),
  /** Why these rows are one world: what makes the facets views of the roots. */
  reason: Prose,
  /** The seed rows or sources that say so. */
  from: Prose,
});
export type RootCauseGroup = z.infer<typeof RootCauseGroupInput>;

/**
 * Validates the groups: ids unique, every member a failure mode of the catalog, and no failure mode both a root and
 * a facet (a facet joins a root; a root joining another root would hide what to fix).
 */
export function readRootCauses(source: YamlSource | undefined, modes: ReadonlySet<string>, issues: ContentIssue[]): RootCauseGroup[] {
  if (!source) return [];
  const { value: raw, issues: found } = validateYaml(source, z.array(z.unknown()));
  issues.push(...found);
  const groups: RootCauseGroup[] = [];
  const ids = new Set<string>();
  const roles = new Map<string, { role: "root" | "facet"; group: string }>();
  (raw ?? []).forEach((item, index) => {
    const { value: group, issues: groupIssues } = validateAt(source, RootCauseGroupInput, item, [index]);
    issues.push(...groupIssues);
    if (!group) return;
    const report = (path: (string | number)[], message: string) => issues.push({ file: source.file, line: source.lineOf([index, ...path]), message: `${group.id}: ${message}` });
    if (ids.has(group.id)) report(["id"], `duplicate root-cause group id "${group.id}"`);
    ids.add(group.id);
    for (const role of ["roots", "facets"] as const)
      group[role].forEach((id, j) => {
        if (!modes.has(id)) return report([role, j], `"${id}" is not a failure mode of the catalog`);
        const as = role === "roots" ? "root" : "facet";
        const held = roles.get(id);
        if (held && held.role !== as) report([role, j], `"${id}" is a ${held.role} in ${held.group}: a failure mode is a root or a facet, not both`);
        else if (held?.group === group.id) report([role, j], `"${id}" is listed twice`);
        roles.set(id, { role: as, group: group.id });
      });
    groups.push(group);
  });
  return groups;
}

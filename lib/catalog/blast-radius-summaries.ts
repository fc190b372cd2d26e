import "server-only";
import { NotFound } from "@/lib/errors";
import { getBlastRadiusPage, listBlastRadiusPages } from "./blast-radius";
import { summariseKmsFailures } from "./blast-radius-view";

// Blast-radius pages as the API serves them: a summary each, or one whole (the KMS plugin's with a summary
// of which failures block start-up or lose data).

export function listBlastRadiusSummaries() {
  const pages = listBlastRadiusPages().map(({ id, title, keyProperty, ifItBreaks, dependsOn }) => ({
    id,
    title,
    keyProperty,
    ifItBreaks,
    dependsOn,
    url: `/blast-radius/${id}`,
  }));
  return { count: pages.length, pages };
}

export function readBlastRadiusDetail(component: string) {
  const page = getBlastRadiusPage(component);
  if (!page) throw new NotFound(`no blast-radius page for "${component}"`, { extra: { component } });
  const body: Partial<typeof page> = { ...page };
  delete body.file;
  if (component !== "kms-plugin") return body;
  const s = summariseKmsFailures();
  const ids = (list: { id: string }[]) => list.map((e) => e.id);
  return {
    ...body,
    summary: {
      blocksStartup: ids(s.blocksStartup),
      partlyBlocksStartup: ids(s.partlyBlocksStartup),
      losesData: ids(s.losesData),
      confidentialityLoss: ids(s.confidentiality),
    },
  };
}

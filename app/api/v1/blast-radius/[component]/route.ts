import { NextResponse } from "next/server";
import { getBlastRadiusPage } from "@/lib/blast-radius/queries";
import { summariseKmsFailures } from "@/lib/blast-radius/view";
import { notFound } from "@/lib/http/json";

export async function GET(_request: Request, { params }: { params: Promise<{ component: string }> }) {
  const { component } = await params;
  const page = getBlastRadiusPage(component);
  if (!page) return notFound(`no blast-radius page for "${component}"`, { component });
  const body: Partial<typeof page> = { ...page };
  delete body.file;
  if (component !== "kms-plugin") return NextResponse.json(body);
  const s = summariseKmsFailures();
  const ids = (list: { id: string }[]) => list.map((e) => e.id);
  return NextResponse.json({
    ...body,
    summary: { blocksStartup: ids(s.blocksStartup), partlyBlocksStartup: ids(s.partlyBlocksStartup), losesData: ids(s.losesData), confidentialityLoss: ids(s.confidentiality) },
  });
}

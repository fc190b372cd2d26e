import { NextResponse } from "next/server";
import { listBlastRadiusPages } from "@/lib/blast-radius/queries";

export function GET() {
  const pages = listBlastRadiusPages().map(({ id, title, keyProperty, ifItBreaks, dependsOn }) => ({
    id,
    title,
    keyProperty,
    ifItBreaks,
    dependsOn,
    url: `/blast-radius/${id}`,
  }));
  return NextResponse.json({ count: pages.length, pages });
}

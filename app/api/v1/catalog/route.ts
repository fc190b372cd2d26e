import { NextResponse, type NextRequest } from "next/server";
import { filterCatalog, parseCatalogQuery } from "@/lib/catalog/filter";
import { getCatalog } from "@/lib/catalog/queries";
import { badRequest } from "@/lib/http/json";

export function GET(request: NextRequest) {
  const { query, errors } = parseCatalogQuery(request.nextUrl.searchParams);
  if (!query) return badRequest(errors!);
  const catalog = getCatalog();
  const entries = filterCatalog(catalog.entries, query);
  return NextResponse.json({ count: entries.length, total: catalog.entries.length, revision: catalog.hash, entries });
}

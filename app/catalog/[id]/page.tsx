import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { EntryDetail } from "@/components/catalog/entry-detail";
import { getCatalog, getEntry } from "@/lib/catalog/queries";
import { loadCatalogEntryPage } from "@/lib/views/catalog-entry";

type Params = Promise<{ id: string }>;

export function generateStaticParams() {
  return getCatalog().entries.map((entry) => ({ id: entry.id }));
}

export async function generateMetadata({ params }: { params: Params }): Promise<Metadata> {
  await pageAccess("viewer");
  const entry = getEntry((await params).id);
  return { title: entry ? entry.title : "Entry not found" };
}

// No loading.tsx for this route (nor one above it: the list's sits in the (overview) group): a loading state
// starts the response with 200 before notFound() runs, and a mistyped link must answer 404.
export default async function EntryPage({ params }: { params: Params }) {
  await pageAccess("viewer");
  const data = loadCatalogEntryPage((await params).id);
  if (!data) notFound();
  return <EntryDetail {...data} />;
}

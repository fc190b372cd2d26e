import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { CatalogTable } from "@/components/catalog/catalog-table";
import { loadCatalogPage } from "@/lib/views/catalog";

export const metadata: Metadata = { title: "Failure-mode catalog" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

export default async function CatalogPage({ searchParams }: { searchParams: SearchParams }) {
  await pageAccess("viewer");
  const { search, errors, initial, entries, components } = loadCatalogPage(await searchParams);
  return (
    <>
      <h1>Failure-mode catalog</h1>
      <p className="lead">
        What goes wrong with KMS encryption at rest and the secret-protection stack, how to see it, what prevents it and
        how to recover. Severity flags come from the source tables; hover a badge for the exact wording.
      </p>
      {errors ? (
        <div className="callout" role="alert" data-testid="query-errors">
          <p>This link has filters Faultline does not understand, so nothing was filtered:</p>
          <ul>
            {Object.entries(errors).map(([field, messages]) => (
              <li key={field}>
                <code>{field}</code>: {messages.join("; ")}
              </li>
            ))}
          </ul>
          <p>
            <Link href="/catalog">Open the whole catalog</Link>
          </p>
        </div>
      ) : null}
      <CatalogTable key={search} entries={entries} components={components} initial={initial} />
    </>
  );
}

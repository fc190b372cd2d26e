"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export default function EntryNotFound() {
  const slug = decodeURIComponent(usePathname().split("/").pop() ?? "");
  const words = slug.replace(/[^a-zA-Z0-9]+/g, " ").trim();
  return (
    <div className="panel" data-testid="entry-not-found">
      <h1>No catalog entry “{slug}”</h1>
      <p className="lead">
        Catalog ids are stable, so this link was probably mistyped or cut short. An alert or bookmark that used to work
        here is worth reporting.
      </p>
      <p>
        {words ? (
          <Link className="button button-primary" href={`/catalog?q=${encodeURIComponent(words)}`}>
            Search the catalog for “{words}”
          </Link>
        ) : null}{" "}
        <Link className="button" href="/catalog">
          Browse all entries
        </Link>
      </p>
    </div>
  );
}

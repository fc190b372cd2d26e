"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { SignOutButton } from "./sign-out-button";
import type { ViewerInfo } from "./viewer";

// Sections that are not built yet are shown, labelled, and not linked: no dead links.
const SECTIONS = [
  { href: "/catalog", label: "Catalog", ready: true },
  { href: "/health", label: "Live health", ready: true },
  { href: "/incidents", label: "Incidents", ready: true },
  { href: "/runbooks", label: "Runbooks", ready: true },
  { href: "/blast-radius", label: "Blast radius", ready: true },
  { href: "/demo", label: "Demo cluster", ready: true },
];

export function SiteNav({ viewer }: { viewer?: ViewerInfo }) {
  const pathname = usePathname();
  return (
    <nav className="nav" aria-label="Main">
      {SECTIONS.map((section) =>
        section.ready ? (
          <Link key={section.href} href={section.href} aria-current={pathname.startsWith(section.href) ? "page" : undefined}>
            {section.label}
          </Link>
        ) : (
          <span key={section.href} className="soon" title="Not built yet">
            {section.label}
            <small>soon</small>
          </span>
        ),
      )}
      {viewer?.role === "admin" ? (
        <Link href="/audit" aria-current={pathname.startsWith("/audit") ? "page" : undefined}>
          Audit
        </Link>
      ) : null}
      {viewer && viewer.mode !== "none" ? (
        <span className="who" data-testid="signed-in-as">
          {viewer.user} <small>{viewer.role}</small>
          {viewer.mode === "oidc" ? (
            <>
              {" "}
              <SignOutButton />
            </>
          ) : null}
        </span>
      ) : null}
    </nav>
  );
}

"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

// Sections that are not built yet are shown, labelled, and not linked: no dead links.
const SECTIONS = [
  { href: "/catalog", label: "Catalog", ready: true },
  { href: "/health", label: "Live health", ready: true },
  { href: "/incidents", label: "Incidents", ready: true },
  { href: "/runbooks", label: "Runbooks", ready: true },
  { href: "/blast-radius", label: "Blast radius", ready: true },
  { href: "/demo", label: "Demo cluster", ready: true },
];

export function SiteNav() {
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
    </nav>
  );
}

"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useRef, useState } from "react";
import { SignOutButton } from "./sign-out-button";
import type { ViewerInfo } from "./viewer";

interface Section {
  href: string;
  label: string;
  ready: boolean;
  /** Other addresses that belong to the section (aria-current). */
  also?: string[];
}

// Sections that are not built yet are shown, labelled, and not linked: no dead links.
const SECTIONS: Section[] = [
  { href: "/catalog", label: "Catalog", ready: true },
  { href: "/health", label: "Live health", ready: true, also: ["/clusters"] },
  { href: "/incidents", label: "Incidents", ready: true },
  { href: "/runbooks", label: "Runbooks", ready: true },
  { href: "/blast-radius", label: "Blast radius", ready: true },
  { href: "/demo", label: "Demo cluster", ready: true },
];
/** With more than one cluster, the fleet comes first and stands for live health (/health leads to it). */
const FLEET: Section = { href: "/fleet", label: "Fleet", ready: true, also: ["/clusters", "/health"] };

/** The sections this Faultline has: the fleet when it watches several clusters, the demo cluster's page while it runs. */
function sectionsOf(fleet: boolean, demo: boolean): Section[] {
  const sections = SECTIONS.filter((s) => (s.href !== "/health" || !fleet) && (s.href !== "/demo" || demo));
  return fleet ? [FLEET, ...sections] : sections;
}

// On a phone (app/small-screens.css, below 640 px) the links fold behind a Menu button; a desktop shows them and no button.
export function SiteNav({ viewer, fleet, demo }: { viewer?: ViewerInfo; fleet: boolean; demo: boolean }) {
  const pathname = usePathname();
  // Open on the page where it was opened: a followed link closes it, and the new page starts with its content.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  const setOpen = (value: boolean) => setOpenOn(value ? pathname : null);
  const toggle = useRef<HTMLButtonElement>(null);
  // Escape closes it and gives the focus back to the button, not to a link that is no longer shown.
  const closeOnEscape = (key: string) => {
    if (key !== "Escape" || !open) return;
    setOpen(false);
    toggle.current?.focus();
  };
  return (
    <nav className="nav" aria-label="Main" onKeyDown={(e) => closeOnEscape(e.key)}>
      <button ref={toggle} type="button" className="button nav-toggle" aria-expanded={open} aria-controls="site-nav-links" onClick={() => setOpen(!open)}>
        <span aria-hidden="true">☰</span> Menu
      </button>
      <div id="site-nav-links" className={open ? "nav-links nav-open" : "nav-links"}>
        {sectionsOf(fleet, demo).map((section) =>
          section.ready ? (
            <Link
              key={section.href}
              href={section.href}
              aria-current={[section.href, ...(section.also ?? [])].some((href) => pathname.startsWith(href)) ? "page" : undefined}
            >
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
      </div>
    </nav>
  );
}

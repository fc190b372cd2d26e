import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { DemoBanner } from "@/components/demo/demo-banner";
import { Providers } from "@/components/providers";
import { SiteNav } from "@/components/site-nav";
import { ViewerProvider } from "@/components/viewer";
import { currentAccess } from "@/lib/auth/page";
import { loadNav } from "@/lib/views/nav";
import "./globals.css";
import "./small-screens.css";

// Every page renders per request: Next.js puts the request's CSP nonce on its scripts only then (docs/auth.md).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Faultline", template: "%s · Faultline" },
  description: "Failure modes, detection and recovery for Kubernetes KMS encryption and secret protection.",
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Who is looking, for the nav and the role-aware controls; each page checks its own role (lib/auth/page.ts).
  const { viewer } = await currentAccess();
  const nav = await loadNav();
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href="/" className="brand">
            Fault<span>line</span>
          </Link>
          <SiteNav viewer={viewer} fleet={nav.fleet} demo={nav.demo} />
        </header>
        <DemoBanner />
        <main>
          <Providers>
            <ViewerProvider viewer={viewer}>{children}</ViewerProvider>
          </Providers>
        </main>
        <footer className="site-footer">Faultline · read-only · catalog ids are stable and safe to link from alerts</footer>
      </body>
    </html>
  );
}

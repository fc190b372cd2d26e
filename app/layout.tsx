import type { Metadata } from "next";
import Link from "next/link";
import type { ReactNode } from "react";
import { DemoBanner } from "@/components/demo/demo-banner";
import { Providers } from "@/components/providers";
import { SiteNav } from "@/components/site-nav";
import "./globals.css";

// Every page renders per request: Next.js puts the request's CSP nonce on its scripts only then (docs/auth.md).
export const dynamic = "force-dynamic";

export const metadata: Metadata = {
  title: { default: "Faultline", template: "%s · Faultline" },
  description: "Failure modes, detection and recovery for Kubernetes KMS encryption and secret protection.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <header className="site-header">
          <Link href="/" className="brand">
            Fault<span>line</span>
          </Link>
          <SiteNav />
        </header>
        <DemoBanner />
        <main>
          <Providers>{children}</Providers>
        </main>
        <footer className="site-footer">Faultline · read-only · catalog ids are stable and safe to link from alerts</footer>
      </body>
    </html>
  );
}

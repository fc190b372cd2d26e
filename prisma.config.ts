import { defineConfig } from "prisma/config";

// No env() helper: it throws when DATABASE_URL is unset, and `prisma generate` needs no database.
export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url: process.env.DATABASE_URL ?? "postgresql://localhost/faultline" },
});

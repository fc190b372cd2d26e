import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { pageAccess } from "@/lib/auth/page";
import { watchesFleet } from "@/lib/views/fleet";

// The role check again above loading.tsx: its loading state would start a 200 before the page's own check could
// answer 401 or 403. With more than one cluster, /health is the fleet view's (a redirect, before anything streams).
export default async function Layout({ children }: { children: ReactNode }) {
  await pageAccess("viewer");
  if (watchesFleet()) redirect("/fleet");
  return children;
}

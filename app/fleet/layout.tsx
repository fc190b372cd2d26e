import type { ReactNode } from "react";
import { pageAccess } from "@/lib/auth/page";

// The role check again above loading.tsx: its loading state would start a 200 before the page's own check could
// answer 401 or 403.
export default async function Layout({ children }: { children: ReactNode }) {
  await pageAccess("viewer");
  return children;
}

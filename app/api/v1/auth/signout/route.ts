import { signOut } from "@/lib/auth/oidc";
import { guarded } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Ends the session here (the provider's own session is the provider's), then to the sign-in page. */
export const POST = guarded("public", (request) => signOut(request));

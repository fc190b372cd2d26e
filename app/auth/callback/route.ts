import { finishSignIn } from "@/lib/auth/oidc";
import { guarded } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** Back from the OIDC provider with a code: a session, then the dashboard (or the sign-in page saying why not). */
export const GET = guarded("public", (request) => finishSignIn(request));

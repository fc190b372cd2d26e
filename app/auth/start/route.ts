import { startSignIn } from "@/lib/auth/oidc";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** To the OIDC provider (FAULTLINE_AUTH=oidc); 404 in the other modes. */
export const GET = route({ role: "public", run: startSignIn, reply: (response) => response });

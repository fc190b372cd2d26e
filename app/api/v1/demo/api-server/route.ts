import { setDemoApiServer } from "@/lib/demo/control";
import { ApiServerChange, DEMO_BODY_LIMIT } from "@/lib/demo/schemas";
import { route } from "@/lib/http/route";

/** Demo cluster: take the simulated API server (and its endpoints) down, or bring it back on the same port. */
export const POST = route({
  role: "admin",
  action: "demo.api-server",
  body: ApiServerChange,
  bodyLimit: DEMO_BODY_LIMIT,
  run: ({ body }) => setDemoApiServer(body),
});

import { setDemoScenario } from "@/lib/demo/control";
import { DEMO_BODY_LIMIT, ScenarioChange, ScenarioParams } from "@/lib/demo/schemas";
import { route } from "@/lib/http/route";

const change = (on: boolean) =>
  route({
    role: "admin",
    action: on ? "demo.scenario.inject" : "demo.scenario.clear",
    object: { type: "scenario", param: "id" },
    params: ScenarioParams,
    body: ScenarioChange,
    bodyLimit: DEMO_BODY_LIMIT,
    run: ({ params, body }) => setDemoScenario(params.id, on, body),
  });

/** Inject a scenario into the demo cluster. Body (optional): { node?, variant? }. */
export const POST = change(true);

/** Clear it. */
export const DELETE = change(false);

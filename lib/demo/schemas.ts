import { z } from "zod";

/** /demo/scenarios/[id]: any id; an unknown one is refused by the scenarios themselves (404). */
export const ScenarioParams = z.object({ id: z.string() });

export const ScenarioChange = z.strictObject({
  node: z
    .string()
    .regex(/^[a-z0-9-]+$/, "node must be a node name like master-1")
    .optional(),
  variant: z
    .string()
    .regex(/^[a-z0-9-]+$/, "variant must be a variant id")
    .optional(),
});
export type ScenarioChange = z.infer<typeof ScenarioChange>;

export const ApiServerChange = z.strictObject({ state: z.enum(["up", "down"], { message: "state must be up or down" }) });
export type ApiServerChange = z.infer<typeof ApiServerChange>;

/** Demo bodies are a few dozen bytes. */
export const DEMO_BODY_LIMIT = 4 * 1024;

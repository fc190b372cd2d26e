import { z } from "zod";

// The incident rules' settings: when they open, group, resolve and reopen incidents (docs/incidents.md), in
// seconds. Beside lib/env.ts, which reads them from the environment, so neither imports lib/incidents.

export const IncidentRulesConfig = z.strictObject({
  /** A critical signal opens an incident after this many consecutive observations... */
  openAfterObservations: z.number().int().min(1).max(1000).default(3),
  /** ...or after it has been critical this long, whichever comes first. */
  openAfterSeconds: z.number().min(0).max(86_400).default(60),
  /** A signal that turns critical this many times within flapWindowSeconds opens an incident at once, however short each
   *  run (a crash loop never stays down long enough for the debounce above). */
  flapOpenAfter: z.number().int().min(2).max(1000).default(3),
  flapWindowSeconds: z.number().min(0).max(86_400).default(900),
  /** An unknown signal opens an incident once it has been unknown this long. */
  unknownOpenAfterSeconds: z.number().min(0).max(86_400).default(300),
  /** Whether a warning opens incidents too (debounced like critical). */
  openOnWarning: z.boolean().default(false),
  /** A fingerprint that fires within this long of an incident opening on the same cluster joins it. */
  groupWindowSeconds: z.number().min(0).max(86_400).default(120),
  /** An incident resolves itself once every fingerprint in it has been healthy this long. */
  resolveAfterSeconds: z.number().min(0).max(86_400).default(300),
  /** A fingerprint that fires again within this long of its incident resolving reopens it. */
  reopenWindowSeconds: z
    .number()
    .min(0)
    .max(7 * 86_400)
    .default(1_800),
});
export type IncidentRulesConfig = z.infer<typeof IncidentRulesConfig>;

export const DEFAULT_RULES_CONFIG: IncidentRulesConfig = IncidentRulesConfig.parse({});

/** Validates a partial configuration and fills the defaults; throws a ZodError naming the bad field. */
export function parseRulesConfig(input: unknown = {}): IncidentRulesConfig {
  return IncidentRulesConfig.parse(input);
}

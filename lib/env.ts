import { isIP } from "node:net";
import { z } from "zod";
import { authVars, checkAuthVars } from "@/lib/auth-config";
import { parseHostEntry } from "@/lib/host-entry";
import { DEFAULT_RULES_CONFIG, IncidentRulesConfig } from "@/lib/incident-rules-config";
import { jsonVar } from "@/lib/json-var";
import { DEFAULT_NOTIFY_RETRY, NotifyReceivers, NotifyRetry, resolveTokens } from "@/lib/notify-config";

// The one place that reads process.env. Everything else asks loadEnv().

const LOOPBACK_NAMES = new Set(["127.0.0.1", "::1", "localhost"]);

export function isLoopbackHost(host: string): boolean {
  if (LOOPBACK_NAMES.has(host)) return true;
  return isIP(host) === 4 && host.startsWith("127.");
}

const postgresUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "postgres:" || url.protocol === "postgresql:";
  } catch {
    return false;
  }
}, "must be a postgres:// or postgresql:// URL");

// A bearer token for a machine route (docs/auth.md); never shown in an error.
const machineToken = z
  .string()
  .min(16, "must be at least 16 characters; make one with: openssl rand -hex 32")
  .max(4096, "must be at most 4096 characters")
  .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces, as a bearer token is sent");

// FAULTLINE_NOTIFY_WEBHOOKS holds receiver URLs, and a Slack webhook's URL is its secret.
const SECRET_VARIABLES = new Set([
  "DATABASE_URL",
  "FAULTLINE_WEBHOOK_TOKEN",
  "FAULTLINE_METRICS_TOKEN",
  "FAULTLINE_OIDC_CLIENT_SECRET",
  "FAULTLINE_NOTIFY_WEBHOOKS",
]);

export const EnvSchema = z
  .object({
    DATABASE_URL: postgresUrl.optional(),
    // A non-loopback address only once people sign in (FAULTLINE_AUTH, checked below).
    HOST: z.string().default("127.0.0.1"),
    PORT: z.coerce
      .number({ message: "must be a port number" })
      .int("must be a whole number")
      .min(1, "must be 1-65535")
      .max(65535, "must be 1-65535")
      .default(3000),
    // The Host names the server answers to (DNS rebinding); unset: the bound address, localhost, 127.0.0.1 and [::1].
    // "https://name" for a name served through a TLS proxy: its pages' Origin is https.
    FAULTLINE_ALLOWED_HOSTS: z
      .string()
      .optional()
      .transform((text, ctx) => {
        if (text === undefined) return [];
        const entries = text.split(",").map((e) => e.trim());
        for (const entry of entries) {
          if (parseHostEntry(entry)) continue;
          ctx.addIssue({
            code: "custom",
            message: `"${entry.slice(0, 100)}" is not a host name, IP address or [IPv6] with an optional :port, optionally after https:// (comma-separated)`,
          });
          return z.NEVER;
        }
        return entries;
      }),
    // Bearer tokens of the machine routes: Alertmanager's webhook and Prometheus's scrape of /metrics.
    FAULTLINE_WEBHOOK_TOKEN: machineToken.optional(),
    FAULTLINE_METRICS_TOKEN: machineToken.optional(),
    FAULTLINE_DATA_DIR: z.string().min(1, "must not be empty").default(".data"),
    // Which clusters to watch (docs/clusters.md); unset means the built-in demo cluster.
    FAULTLINE_CLUSTERS_FILE: z.string().min(1, "must be a path to a clusters YAML file").optional(),
    FAULTLINE_POLL_SECONDS: z.coerce.number({ message: "must be a number" }).min(1, "must be 1-60").max(60, "must be 1-60").default(2),
    // The built-in simulated cluster; the default while no real cluster is configured.
    FAULTLINE_DEMO: z.enum(["on", "off"]).default("on"),
    FAULTLINE_DEMO_NODES: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be 1-5000")
      .max(5000, "must be 1-5000")
      .default(3),
    // Debian's Prometheus scraping the demo cluster's metrics, when /usr/bin/prometheus is installed.
    FAULTLINE_DEMO_PROMETHEUS: z.enum(["on", "off"]).default("on"),
    FAULTLINE_DEMO_INTERVAL_SECONDS: z.coerce.number({ message: "must be a number" }).min(1, "must be 1-3600").max(3600, "must be 1-3600").default(30),
    // How often the demo API server sends a watch bookmark; a real one: about once a minute.
    FAULTLINE_DEMO_BOOKMARK_SECONDS: z.coerce
      .number({ message: "must be a number" })
      .int("must be whole seconds")
      .min(1, "must be 1-300")
      .max(300, "must be 1-300")
      .default(60),
    // When incidents open, group, resolve and reopen (docs/incidents.md): a JSON object of the fields to change.
    FAULTLINE_INCIDENT_RULES: jsonVar(IncidentRulesConfig, 'a JSON object such as {"openAfterObservations":3}').default(DEFAULT_RULES_CONFIG),
    // Incident notifications (docs/notifications.md): the receivers, how retries go, and the address links point at.
    FAULTLINE_NOTIFY_WEBHOOKS: jsonVar(NotifyReceivers, 'JSON such as [{"name":"pager","url":"https://hooks.example.org/faultline","format":"json"}]').default(
      [],
    ),
    FAULTLINE_NOTIFY_RETRY: jsonVar(NotifyRetry, 'JSON such as {"maxAttempts":20,"capSeconds":300}').default(DEFAULT_NOTIFY_RETRY),
    FAULTLINE_PUBLIC_URL: z
      .string()
      .refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === "http:" || url.protocol === "https:") && url.search === "" && url.hash === "";
        } catch {
          return false;
        }
      }, "must be the http:// or https:// address people open Faultline at, without ?query or #fragment")
      .transform((value) => value.replace(/\/+$/, ""))
      .optional(),
    ...authVars,
  })
  .superRefine((env, ctx) => checkAuthVars(env, isLoopbackHost, ctx));
export type Env = z.infer<typeof EnvSchema>;

export class EnvError extends Error {}

/** Parses an environment; throws EnvError whose message is one line naming the variable. */
export function parseEnv(source: Record<string, string | undefined>): Env {
  // An empty variable means "not set", as shells and .env files usually intend.
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ""));
  const result = EnvSchema.safeParse(cleaned);
  if (result.success) {
    const receivers = resolveTokens(result.data.FAULTLINE_NOTIFY_WEBHOOKS, cleaned);
    if (typeof receivers === "string") throw new EnvError(`Invalid environment variable FAULTLINE_NOTIFY_WEBHOOKS: ${receivers}`);
    return { ...result.data, FAULTLINE_NOTIFY_WEBHOOKS: receivers };
  }
  const issue = result.error.issues[0];
  const name = String(issue.path[0] ?? "environment");
  const shown = name in cleaned && !SECRET_VARIABLES.has(name) ? ` (got "${cleaned[name]}")` : "";
  throw new EnvError(`Invalid environment variable ${name}${shown}: ${issue.message}`);
}

let cached: Env | undefined;

export function loadEnv(): Env {
  cached ??= parseEnv(process.env);
  return cached;
}

/** Lets the embedded database publish its URL to the rest of the process (and Prisma's CLI). */
export function setDatabaseUrl(url: string): void {
  process.env.DATABASE_URL = url;
  cached = undefined;
}

/** The address links in notifications point at: FAULTLINE_PUBLIC_URL, else this server's own HOST and PORT. */
export function publicUrl(env: Env = loadEnv()): string {
  if (env.FAULTLINE_PUBLIC_URL) return env.FAULTLINE_PUBLIC_URL;
  const host = env.HOST.includes(":") ? `[${env.HOST}]` : env.HOST;
  return `http://${host}:${env.PORT}`;
}

export function isProduction(): boolean {
  return process.env.NODE_ENV === "production";
}

/** The environment for Next itself (build or server): production mode, no telemetry calls home. */
export function prepareNextEnv(): NodeJS.ProcessEnv {
  Object.assign(process.env, { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1" });
  return process.env;
}

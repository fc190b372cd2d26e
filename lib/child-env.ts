// What a child process of the server sees of the server's environment: only what a program needs to run
// (paths, locale, Node's and Next's own switches, Faultline's settings), never DATABASE_URL (it holds the
// database password) nor anything named like a token, password, secret, key or credential.

const NEEDED = /^(PATH|HOME|TMPDIR|TMP|TEMP|LANG|LANGUAGE|LC_[A-Z]+|TZ|NODE_OPTIONS|NODE_ENV|NEXT_TELEMETRY_DISABLED|NEXT_PUBLIC_\w+|FAULTLINE_\w+|CI)$/;
// FAULTLINE_NOTIFY_WEBHOOKS: receiver URLs, and a Slack webhook's URL is its secret.
const SECRET = /TOKEN|PASSWORD|PASSWD|SECRET|KEY|CREDENTIAL|DATABASE_URL|WEBHOOKS/i;

/** The part of `env` a child may inherit. */
export function childEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && NEEDED.test(name) && !SECRET.test(name)) out[name] = value;
  return out as NodeJS.ProcessEnv;
}

import { BlockList, isIP } from "node:net";
import { z } from "zod";
import { jsonVar } from "@/lib/json-var";

// Who may use Faultline and as what (docs/auth.md): the mode, the role mapping from groups, the trusted proxy and
// the OIDC client. Beside lib/env.ts, which reads them, so that lib/auth can import the environment without a cycle.

export const ROLES = ["viewer", "responder", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const AuthMode = z.enum(["none", "proxy", "oidc"], { message: "must be none, proxy or oidc" });

const groupName = z.string().trim().min(1, "a group name must not be empty").max(256, "a group name is at most 256 characters");
export const RoleGroups = z.strictObject({
  admin: z.array(groupName).max(100).default([]),
  responder: z.array(groupName).max(100).default([]),
  viewer: z.array(groupName).max(100).default([]),
});
export type RoleGroups = z.infer<typeof RoleGroups>;

/** FAULTLINE_ROLE_GROUPS: JSON of role -> groups ("*": anyone signed in). */
export const roleGroupsVar = jsonVar(RoleGroups, 'a JSON object such as {"admin":["sre-leads"],"responder":["sre"],"viewer":["*"]}');

/** An address range: "10.0.0.0/8", "fd00::/8", or one address. */
export interface Cidr {
  address: string;
  prefix: number;
  family: "ipv4" | "ipv6";
}

function parseCidr(text: string): Cidr | string {
  const [address, bits, ...rest] = text.split("/");
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return `"${text.slice(0, 60)}" is not an address or CIDR range`;
  const max = version === 4 ? 32 : 128;
  const prefix = bits === undefined ? max : Number(bits);
  if (!/^\d{1,3}$/.test(bits ?? String(max)) || prefix > max) return `"${text.slice(0, 60)}": the prefix length must be 0-${max}`;
  return { address, prefix, family: version === 4 ? "ipv4" : "ipv6" };
}

/** FAULTLINE_PROXY_SOURCES: comma-separated addresses or CIDR ranges the authenticating proxy connects from. */
export const proxySourcesVar = z.string().transform((text, ctx): Cidr[] => {
  const items = text
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const parsed = items.map(parseCidr);
  const bad = parsed.find((p): p is string => typeof p === "string");
  if (bad || items.length === 0) {
    ctx.addIssue({ code: "custom", message: bad ?? "must list at least one address or CIDR range" });
    return z.NEVER;
  }
  return parsed as Cidr[];
});

/** Whether `address` (as a socket reports it; IPv4-mapped IPv6 included) lies in one of `ranges`. */
export function inRanges(address: string, ranges: Cidr[]): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  const plain = mapped ? mapped[1] : address;
  const family = isIP(plain);
  if (family === 0) return false;
  const list = new BlockList();
  for (const r of ranges) list.addSubnet(r.address, r.prefix, r.family);
  return list.check(plain, family === 4 ? "ipv4" : "ipv6");
}

const headerName = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9-]{1,64}$/, "must be an HTTP header name");
const httpsOrLoopbackUrl = z.string().refine((value) => {
  try {
    const url = new URL(value);
    return url.protocol === "https:" || (url.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname));
  } catch {
    return false;
  }
}, "must be an https:// URL (http:// only on loopback)");

/** The authentication variables of the environment schema. */
export const authVars = {
  FAULTLINE_AUTH: AuthMode.default("none"),
  FAULTLINE_ROLE_GROUPS: roleGroupsVar.optional(),
  FAULTLINE_PROXY_SOURCES: proxySourcesVar.optional(),
  FAULTLINE_PROXY_USER_HEADER: headerName.default("X-Forwarded-User"),
  FAULTLINE_PROXY_EMAIL_HEADER: headerName.default("X-Forwarded-Email"),
  FAULTLINE_PROXY_GROUPS_HEADER: headerName.default("X-Forwarded-Groups"),
  FAULTLINE_OIDC_ISSUER: httpsOrLoopbackUrl.optional(),
  FAULTLINE_OIDC_CLIENT_ID: z.string().trim().min(1).max(256).optional(),
  FAULTLINE_OIDC_CLIENT_SECRET: z.string().min(1).max(1024).optional(),
  FAULTLINE_OIDC_REDIRECT_URL: httpsOrLoopbackUrl.optional(),
  FAULTLINE_OIDC_GROUPS_CLAIM: z.string().trim().min(1).max(100).default("groups"),
};

type AuthValues = { [K in keyof typeof authVars]?: z.infer<(typeof authVars)[K]> } & { HOST: string };

/** What each mode needs, and the HOST rule: a non-loopback address only once people sign in. */
export function checkAuthVars(env: AuthValues, isLoopback: (host: string) => boolean, ctx: z.RefinementCtx): void {
  const need = (name: keyof typeof authVars, why: string) => {
    if (env[name] === undefined) ctx.addIssue({ code: "custom", path: [name], message: `is required ${why}` });
  };
  if (env.FAULTLINE_AUTH === "none" && !isLoopback(env.HOST)) {
    ctx.addIssue({
      code: "custom",
      path: ["HOST"],
      message:
        "binding a non-loopback address is refused while FAULTLINE_AUTH=none; set FAULTLINE_AUTH=proxy or oidc (docs/auth.md), or use 127.0.0.1, ::1 or localhost",
    });
  }
  if (env.FAULTLINE_AUTH === "none") return;
  need("FAULTLINE_ROLE_GROUPS", `with FAULTLINE_AUTH=${env.FAULTLINE_AUTH}: which groups are admin, responder and viewer`);
  if (env.FAULTLINE_AUTH === "proxy") need("FAULTLINE_PROXY_SOURCES", "with FAULTLINE_AUTH=proxy: the addresses the authenticating proxy connects from");
  if (env.FAULTLINE_AUTH === "oidc") {
    for (const name of ["FAULTLINE_OIDC_ISSUER", "FAULTLINE_OIDC_CLIENT_ID", "FAULTLINE_OIDC_CLIENT_SECRET", "FAULTLINE_OIDC_REDIRECT_URL"] as const)
      need(name, "with FAULTLINE_AUTH=oidc");
  }
}

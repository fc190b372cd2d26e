import type { ServerResponse } from "node:http";
import { RESOURCES } from "./resources";
import { sendJson } from "./status";

// Discovery at every path kubectl and the official clients ask for, with and without a trailing
// slash: /version, /api, /apis, /apis/<group>, /api/v1 and /apis/<group>/<version>.

export const VERSION = {
  major: "1",
  minor: "35",
  gitVersion: "v1.35.3",
  gitCommit: "4ee2ad9b6e1fb8ec28e0f0bbbfd1fc5bd0e1d4a7",
  gitTreeState: "clean",
  buildDate: "2026-03-12T09:21:44Z",
  goVersion: "go1.25.7",
  compiler: "gc",
  platform: "linux/amd64",
};

function groups() {
  return [...new Set(RESOURCES.filter((r) => r.group).map((r) => r.group))].map((name) => {
    const versions = [...new Set(RESOURCES.filter((r) => r.group === name).map((r) => r.version))].map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return { name, versions, preferredVersion: versions[0] };
  });
}

/** Serves a discovery document for the path, or returns false when the path is not one. */
export function serveDiscovery(pathname: string, res: ServerResponse, serverAddress: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  if (path === "/version") return (void sendJson(res, 200, VERSION), true);
  if (path === "/api")
    return (void sendJson(res, 200, { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] }), true);
  if (path === "/apis") return (void sendJson(res, 200, { kind: "APIGroupList", apiVersion: "v1", groups: groups() }), true);
  const group = /^\/apis\/([^/]+)$/.exec(path);
  if (group) {
    const found = groups().find((g) => g.name === group[1]);
    if (!found) return false;
    sendJson(res, 200, { kind: "APIGroup", apiVersion: "v1", ...found });
    return true;
  }
  const m = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
  if (!m) return false;
  const [g, version] = m[1] ? ["", "v1"] : [m[2], m[3]];
  const types = RESOURCES.filter((r) => r.group === g && r.version === version);
  if (types.length === 0) return false;
  const resources = types.flatMap((t) => [
    {
      name: t.plural,
      singularName: t.kind.toLowerCase(),
      namespaced: t.namespaced,
      kind: t.kind,
      verbs: t.verbs,
      ...(t.shortNames ? { shortNames: t.shortNames } : {}),
      ...(t.categories ? { categories: t.categories } : {}),
    },
    ...(t.verbs.includes("patch") ? [{ name: `${t.plural}/status`, singularName: "", namespaced: t.namespaced, kind: t.kind, verbs: ["get", "patch"] }] : []),
  ]);
  sendJson(res, 200, { kind: "APIResourceList", apiVersion: "v1", groupVersion: g ? `${g}/${version}` : "v1", resources });
  return true;
}

// A minimal protobuf writer: every field written is length-delimited (wire type 2).
const varint = (n: number) => {
  const out: number[] = [];
  while (n > 127) {
    out.push((n & 127) | 128);
    n >>>= 7;
  }
  out.push(n);
  return Buffer.from(out);
};
const field = (number: number, value: string | Buffer) => {
  const bytes = typeof value === "string" ? Buffer.from(value) : value;
  return Buffer.concat([varint((number << 3) | 2), varint(bytes.length), bytes]);
};

/**
 * /openapi/v2 as protobuf (gnostic's openapi_v2.Document), what kubectl downloads before it applies
 * or dry-runs: no schemas (kubectl skips validating a kind it has none for, as for a CRD without one),
 * and for each kind its PATCH operation with the dryRun parameter, which kubectl looks for.
 */
export function openApiV2(): Buffer {
  const info = Buffer.concat([field(1, "Kubernetes"), field(2, VERSION.gitVersion)]);
  const dryRunParam = field(1, field(2, field(3, Buffer.concat([field(2, "query"), field(4, "dryRun")]))));
  const paths = RESOURCES.map((t) => {
    const base = t.group ? `/apis/${t.group}/${t.version}` : "/api/v1";
    const path = `${base}${t.namespaced ? "/namespaces/{namespace}" : ""}/${t.plural}/{name}`;
    const gvk = `group: ${JSON.stringify(t.group)}\nkind: ${t.kind}\nversion: ${t.version}\n`;
    const extension = field(13, Buffer.concat([field(1, "x-kubernetes-group-version-kind"), field(2, field(2, gvk))]));
    const operation = Buffer.concat([field(5, `patch${t.kind}`), field(8, dryRunParam), extension]);
    return field(2, Buffer.concat([field(1, path), field(2, field(8, operation))]));
  });
  return Buffer.concat([field(1, "2.0"), field(2, info), field(8, Buffer.concat(paths))]);
}

import type { ServerResponse } from "node:http";
import { RESOURCES } from "./resources";
import { sendJson } from "./status";

// Discovery at every path kubectl and the official clients ask for, with and without a trailing
// slash: /version, /api, /apis, /apis/<group>, /api/v1 and /apis/<group>/<version>.

export const VERSION = { major: "1", minor: "35", gitVersion: "v1.35.3", gitCommit: "4ee2ad9b6e1fb8ec28e0f0bbbfd1fc5bd0e1d4a7", gitTreeState: "clean", buildDate: "2026-03-12T09:21:44Z", goVersion: "go1.25.7", compiler: "gc", platform: "linux/amd64" };

function groups() {
  return [...new Set(RESOURCES.filter((r) => r.group).map((r) => r.group))].map((name) => {
    const versions = [...new Set(RESOURCES.filter((r) => r.group === name).map((r) => r.version))].map((v) => ({ groupVersion: `${name}/${v}`, version: v }));
    return { name, versions, preferredVersion: versions[0] };
  });
}

/** Serves a discovery document for the path, or returns false when the path is not one. */
export function serveDiscovery(pathname: string, res: ServerResponse, serverAddress: string): boolean {
  const path = pathname.length > 1 ? pathname.replace(/\/$/, "") : pathname;
  if (path === "/version") return void sendJson(res, 200, VERSION), true;
  if (path === "/api") return void sendJson(res, 200, { kind: "APIVersions", versions: ["v1"], serverAddressByClientCIDRs: [{ clientCIDR: "0.0.0.0/0", serverAddress }] }), true;
  if (path === "/apis") return void sendJson(res, 200, { kind: "APIGroupList", apiVersion: "v1", groups: groups() }), true;
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

/**
 * /openapi/v2 as protobuf (what kubectl's client-side validation asks for): a document with no
 * definitions, so kubectl skips validating kinds it has no schema for, as it does for a CRD without one.
 */
export function openApiV2(): Buffer {
  const str = (field: number, text: string) => Buffer.concat([Buffer.from([(field << 3) | 2, Buffer.byteLength(text)]), Buffer.from(text)]);
  const info = Buffer.concat([str(1, "Kubernetes"), str(6, VERSION.gitVersion)]);
  return Buffer.concat([str(1, "2.0"), Buffer.from([(2 << 3) | 2, info.length]), info]);
}

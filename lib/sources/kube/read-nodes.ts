// The nodes as the KMS matrix needs them: name, whether it runs the control plane (so an API server, so a
// KMS plugin that must report), and since when it exists.

export interface NodeView {
  name: string;
  controlPlane: boolean;
  /** ISO time: creationTimestamp. */
  firstSeen?: string;
}

const CONTROL_PLANE = ["node-role.kubernetes.io/master", "node-role.kubernetes.io/control-plane"];

export function readNodes(value: unknown[]): NodeView[] {
  return value.flatMap((node) => {
    const meta = (node as { metadata?: { name?: string; labels?: Record<string, string>; creationTimestamp?: string | Date } }).metadata;
    if (!meta?.name) return [];
    const created = meta.creationTimestamp instanceof Date ? meta.creationTimestamp.toISOString() : meta.creationTimestamp;
    return [{ name: meta.name, controlPlane: CONTROL_PLANE.some((l) => l in (meta.labels ?? {})), firstSeen: created }];
  });
}

import { readFileSync } from "node:fs";
import path from "node:path";
import { buildKmsMatrix, type KmsMatrixInput, type KmsNode } from "@/lib/model/kms-matrix";
import { readOperatorStatus } from "@/lib/sources/kube/read-operator-status";

// The fixtures' cluster at their reference time (test/fixtures/README.md), for the KMS matrix tests.

export const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(import.meta.dirname, "fixtures", name), "utf8"));
export const conditionCr = () => fixture("kubeapiserver-operator-cr.json");
export const typedCr = () => fixture("kubeapiserver-operator-cr-typed-healthreports.json");

export const NOW = new Date("2026-08-20T10:15:00Z");
export const masters = (): KmsNode[] => ["master-0", "master-1", "master-2"].map((name) => ({ name, controlPlane: true, firstSeen: "2026-08-12T07:22:18Z" }));
export const matrixOf = (cr: unknown, extra: Partial<KmsMatrixInput> = {}) =>
  buildKmsMatrix({ now: NOW, intervalSeconds: 30, nodes: masters(), sources: [{ source: "kubeapiservers", view: readOperatorStatus(cr) }], ...extra });
export const reporter = (cr: { status: { conditions: { type: string; message?: string }[] } }, node: string) =>
  cr.status.conditions.find((c) => c.type === `KMSHealthReporter_${node}`)!;

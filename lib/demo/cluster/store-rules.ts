import { describeField, fieldsV1, isObject, type Json, type JsonObject } from "./fields";
import { apiVersionOf, type ResourceType } from "./resources";

// The store's errors and the rules it applies around a write: status subresource strategy, managed
// fields, the real 404/409/422 shapes.

export interface Ownership {
  operation: "Apply" | "Update";
  apiVersion: string;
  time: string;
  subresource?: string;
  paths: Set<string>;
}

export class StoreError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly details?: JsonObject,
  ) {
    super(message);
  }
}

/**
 * The status subresource's strategy: a write to the main resource leaves status as it was, a write to
 * /status changes nothing but status (every kind served here has one).
 */
export function keepOtherSide(next: JsonObject, before: JsonObject, subresource: "status" | undefined): void {
  if (subresource === "status") {
    for (const k of Object.keys(next)) if (k !== "status") delete next[k];
    Object.assign(next, { ...before, status: next.status });
    if (next.status === undefined) delete next.status;
  } else if (before.status === undefined) delete next.status;
  else next.status = before.status;
}

export function managedFields(owners: Map<string, Ownership>): Json[] {
  return [...owners]
    .filter(([, own]) => own.paths.size > 0)
    .map(([manager, own]) => ({
      manager,
      operation: own.operation,
      apiVersion: own.apiVersion,
      time: own.time,
      fieldsType: "FieldsV1",
      ...(own.subresource ? { subresource: own.subresource } : {}),
      fieldsV1: fieldsV1(own.paths),
    }));
}

export const withoutTimes = (object: JsonObject): JsonObject => {
  const meta = object.metadata as JsonObject;
  return { ...object, metadata: { ...meta, managedFields: ((meta.managedFields ?? []) as JsonObject[]).map((f) => ({ ...f, time: null })) } };
};

export function mergeJson(target: Json, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(target) ? target : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergeJson(out[k] ?? null, v);
  }
  return out;
}

export function notFound(type: ResourceType, name: string): StoreError {
  return new StoreError(404, "NotFound", `${type.plural}${type.group ? `.${type.group}` : ""} "${name}" not found`, {
    name,
    group: type.group,
    kind: type.plural,
  });
}

export function conflictError(type: ResourceType, conflicts: { manager: string; path: string }[]): StoreError {
  const causes = conflicts.map(({ manager, path }) => ({
    reason: "FieldManagerConflict",
    message: `conflict with "${manager}" using ${apiVersionOf(type)}`,
    field: describeField(path),
  }));
  const listing = causes.map((c) => `${c.message}: ${c.field}`).join("\n");
  return new StoreError(409, "Conflict", `Apply failed with ${conflicts.length} conflict${conflicts.length === 1 ? "" : "s"}: ${listing}`, { causes });
}

/** The one schema rule of the real CRD that Faultline must see the consequence of. */
export function validate(type: ResourceType, object: JsonObject): void {
  const reports = (((object.status as JsonObject | undefined)?.encryptionStatus as JsonObject | undefined)?.healthReports ?? []) as JsonObject[];
  const missing = reports.findIndex((r) => typeof r.remoteKeyID !== "string" || r.remoteKeyID === "");
  if (missing >= 0) {
    const meta = object.metadata as JsonObject;
    const field = `status.encryptionStatus.healthReports[${missing}].remoteKeyID`;
    throw new StoreError(422, "Invalid", `${type.kind}.${type.group} "${meta.name}" is invalid: ${field}: Required value`, {
      name: meta.name as string,
      group: type.group,
      kind: type.kind,
      causes: [{ reason: "FieldValueRequired", message: "Required value", field }],
    });
  }
}

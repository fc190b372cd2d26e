import { randomUUID } from "node:crypto";
import { deepEqual, deleteAt, flattenApplied, getAt, isObject, setAt, type JsonObject } from "./fields";
import { apiVersionOf, resourceKey, type ResourceType } from "./resources";
import { conflictError, keepOtherSide, managedFields, mergeJson, notFound, StoreError, validate, withoutTimes, type Ownership } from "./store-rules";

export { notFound, StoreError };

// An in-memory object store with the Kubernetes semantics Faultline depends on: one
// resourceVersion sequence, a bounded event history (a watch older than it gets 410 Expired),
// and server-side apply with per-manager field ownership and 409 conflicts.

export type WatchEventType = "ADDED" | "MODIFIED" | "DELETED";

export interface StoredEvent {
  rv: number;
  resource: string;
  type: WatchEventType;
  object: JsonObject;
  /** The object before this change (MODIFIED, DELETED): a selector watch needs both sides. */
  previous?: JsonObject;
}

interface Entry {
  object: JsonObject;
  owners: Map<string, Ownership>;
}

export type Listener = (event: StoredEvent) => void;

export interface ApplyOptions {
  manager: string;
  force: boolean;
  subresource?: "status";
  /** dryRun=All: everything is checked and the result returned, nothing is stored. */
  dryRun?: boolean;
}

export interface PatchOptions {
  manager: string;
  subresource?: "status";
  dryRun?: boolean;
}

const objectKey = (namespace: string | undefined, name: string) => `${namespace ?? ""}/${name}`;

export class ObjectStore {
  private rv: number;
  private readonly objects = new Map<string, Map<string, Entry>>();
  private readonly history: StoredEvent[] = [];
  /** When each event of `history` was recorded (ms): events older than `historySeconds` are compacted. */
  private readonly recordedAt: number[] = [];
  /** Watches from a resourceVersion below this have missed events: 410 Expired. */
  private compactedRv: number;
  private readonly listeners = new Set<Listener>();

  constructor(
    private readonly now: () => Date,
    private readonly historyLimit = 5000,
    startRv = 1000,
    /** As etcd's compaction every 5 minutes: a count alone lets a 5,000-node CR's events (MBs each) pile up to GBs. */
    private readonly historySeconds = 300,
  ) {
    this.rv = startRv;
    this.compactedRv = startRv;
  }

  get resourceVersion(): string {
    return String(this.rv);
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  list(type: ResourceType, namespace?: string): { items: JsonObject[]; resourceVersion: string } {
    const bucket = this.objects.get(resourceKey(type));
    const items = [...(bucket?.values() ?? [])].map((e) => e.object).filter((o) => !namespace || (o.metadata as JsonObject).namespace === namespace);
    return { items, resourceVersion: this.resourceVersion };
  }

  get(type: ResourceType, namespace: string | undefined, name: string): JsonObject | undefined {
    return this.objects.get(resourceKey(type))?.get(objectKey(namespace, name))?.object;
  }

  /** Whether the history still reaches back to this resourceVersion (a continue token or a resume from it works). */
  stillRemembers(rv: number): boolean {
    return rv >= this.compactedRv;
  }

  /** Events after `since` for a resource, or a 410 when the history no longer reaches back that far. */
  eventsSince(type: ResourceType, since: number): StoredEvent[] {
    if (since < this.compactedRv) {
      throw new StoreError(410, "Expired", `too old resource version: ${since} (${this.compactedRv})`);
    }
    const key = resourceKey(type);
    return this.history.filter((e) => e.rv > since && e.resource === key);
  }

  /** Creates or replaces an object as the simulator's own controllers do (no ownership checks). */
  put(type: ResourceType, object: JsonObject, manager = "faultline-sim"): JsonObject {
    const meta = object.metadata as JsonObject;
    const existing = this.entry(type, meta.namespace as string | undefined, meta.name as string);
    const next = structuredClone(object);
    const owners = existing?.owners ?? new Map<string, Ownership>();
    owners.set(manager, { operation: "Update", apiVersion: apiVersionOf(type), time: this.time(), paths: new Set(["f:spec", "f:status"]) });
    return this.commit(type, next, existing, owners);
  }

  delete(type: ResourceType, namespace: string | undefined, name: string): boolean {
    const bucket = this.objects.get(resourceKey(type));
    const key = objectKey(namespace, name);
    const existing = bucket?.get(key);
    if (!existing) return false;
    bucket!.delete(key);
    const object = structuredClone(existing.object);
    (object.metadata as JsonObject).resourceVersion = String(++this.rv);
    this.record({ rv: this.rv, resource: resourceKey(type), type: "DELETED", object, previous: existing.object });
    return true;
  }

  /** JSON merge patch (RFC 7386), as `kubectl patch --type merge` sends it. */
  mergePatch(type: ResourceType, namespace: string | undefined, name: string, patch: JsonObject, manager = "unknown"): JsonObject {
    return this.patch(type, namespace, name, (object) => mergeJson(object, patch) as JsonObject, { manager });
  }

  /**
   * A patch as an Update by `manager` (merge, JSON or strategic: `change` turns the stored object into
   * the new one); the manager comes to own the fields whose values it changed.
   */
  patch(type: ResourceType, namespace: string | undefined, name: string, change: (object: JsonObject) => JsonObject, opts: PatchOptions): JsonObject {
    const existing = this.entry(type, namespace, name);
    if (!existing) throw notFound(type, name);
    const before = structuredClone(existing.object);
    const next = change(structuredClone(existing.object));
    const meta = next.metadata as JsonObject | undefined;
    if (!isObject(meta) || meta.name !== name)
      throw new StoreError(400, "BadRequest", `the name of the object (${String(meta?.name)}) does not match the name on the URL (${name})`);
    keepOtherSide(next, before, opts.subresource);
    const owners = new Map([...existing.owners].map(([m, o]) => [m, { ...o, paths: new Set(o.paths) }]));
    const strip = (o: JsonObject) => ({ ...o, metadata: { ...(o.metadata as JsonObject), managedFields: null, resourceVersion: null } });
    const roots = Object.keys(next)
      .filter((k) => !["apiVersion", "kind", "metadata"].includes(k))
      .concat(["metadata.labels", "metadata.annotations"]);
    const after = flattenApplied(strip(next), type.listMapKeys ?? {}, roots);
    const previous = flattenApplied(strip(before), type.listMapKeys ?? {}, roots);
    const changed = [...after].filter(([path, value]) => !previous.has(path) || !deepEqual(previous.get(path), value)).map(([path]) => path);
    if (changed.length > 0) {
      const own = owners.get(opts.manager) ?? { operation: "Update" as const, apiVersion: apiVersionOf(type), time: this.time(), paths: new Set<string>() };
      for (const path of changed) {
        for (const other of owners.values()) other.paths.delete(path);
        own.paths.add(path);
      }
      owners.set(opts.manager, { ...own, operation: "Update", time: this.time(), subresource: opts.subresource });
    }
    validate(type, next);
    return this.commit(type, next, existing, owners, opts.dryRun);
  }

  /** Server-side apply: the manager's fields become exactly those applied; conflicts need force. */
  apply(type: ResourceType, namespace: string | undefined, name: string, body: JsonObject, opts: ApplyOptions): JsonObject {
    return this.applyMany(type, namespace, name, [{ body, opts }]);
  }

  /** Several managers' applies to one object, committed as one write (one resourceVersion, one event). */
  applyMany(type: ResourceType, namespace: string | undefined, name: string, items: { body: JsonObject; opts: ApplyOptions }[]): JsonObject {
    const existing = this.entry(type, namespace, name);
    const current: JsonObject = existing
      ? structuredClone(existing.object)
      : { apiVersion: apiVersionOf(type), kind: type.kind, metadata: { name, ...(namespace ? { namespace } : {}) } };
    const owners = new Map([...(existing?.owners ?? [])].map(([m, o]) => [m, { ...o, paths: new Set(o.paths) }]));
    // path -> managers owning it, so each apply costs its own fields, not the number of managers.
    const index = new Map<string, Set<string>>();
    for (const [manager, own] of owners) for (const path of own.paths) (index.get(path) ?? index.set(path, new Set()).get(path)!).add(manager);
    const before = existing ? structuredClone(existing.object) : undefined;
    for (const { body, opts } of items) this.applyInto(type, current, owners, index, body, opts);
    if (before) keepOtherSide(current, before, items[0]?.opts.subresource);
    validate(type, current);
    return this.commit(
      type,
      current,
      existing,
      owners,
      items.every((i) => i.opts.dryRun),
    );
  }

  private applyInto(
    type: ResourceType,
    current: JsonObject,
    owners: Map<string, Ownership>,
    index: Map<string, Set<string>>,
    body: JsonObject,
    opts: ApplyOptions,
  ): void {
    const roots =
      opts.subresource === "status"
        ? ["status"]
        : Object.keys(body)
            .filter((k) => !["apiVersion", "kind", "metadata", "status"].includes(k))
            .concat(["metadata.labels", "metadata.annotations"]);
    const applied = flattenApplied(body, type.listMapKeys ?? {}, roots);
    const others = (path: string) => [...(index.get(path) ?? [])].filter((m) => m !== opts.manager);
    const conflicts: { manager: string; path: string }[] = [];
    for (const [path, value] of applied) {
      if (path.endsWith("/.")) continue;
      const holders = others(path);
      if (holders.length > 0 && !deepEqual(getAt(current, path), value)) holders.forEach((manager) => conflicts.push({ manager, path }));
    }
    if (conflicts.length > 0 && !opts.force) throw conflictError(type, conflicts);
    for (const { manager, path } of conflicts) {
      owners.get(manager)!.paths.delete(path);
      index.get(path)?.delete(manager);
    }

    const previous = owners.get(opts.manager)?.paths ?? new Set<string>();
    // Fields this manager applied before and no longer applies are removed, unless someone else owns
    // them; a list entry that goes is removed whole (its key fields included).
    for (const path of previous) index.get(path)?.delete(opts.manager);
    const dropped = [...previous].filter((path) => !applied.has(path) && others(path).length === 0);
    const droppedEntries = dropped.filter((path) => path.endsWith("/.")).map((path) => path.slice(0, -1));
    for (const path of dropped) {
      if (!path.endsWith("/.") && droppedEntries.some((entry) => path.startsWith(entry))) continue;
      deleteAt(current, path);
    }
    for (const [path, value] of applied) {
      setAt(current, path, structuredClone(value));
      (index.get(path) ?? index.set(path, new Set()).get(path)!).add(opts.manager);
    }
    owners.set(opts.manager, {
      operation: "Apply",
      apiVersion: apiVersionOf(type),
      time: this.time(),
      subresource: opts.subresource,
      paths: new Set(applied.keys()),
    });
  }

  private entry(type: ResourceType, namespace: string | undefined, name: string): Entry | undefined {
    return this.objects.get(resourceKey(type))?.get(objectKey(namespace, name));
  }

  private time(): string {
    return this.now()
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
  }

  private commit(type: ResourceType, next: JsonObject, existing: Entry | undefined, owners: Map<string, Ownership>, dryRun = false): JsonObject {
    const meta = (next.metadata ??= {}) as JsonObject;
    const previousMeta = (existing?.object.metadata ?? {}) as JsonObject;
    next.apiVersion = apiVersionOf(type);
    next.kind = type.kind;
    meta.uid = (previousMeta.uid as string) ?? (meta.uid as string) ?? randomUUID();
    meta.creationTimestamp = (previousMeta.creationTimestamp as string) ?? (meta.creationTimestamp as string) ?? this.time();
    const specChanged = !existing || !deepEqual(existing.object.spec, next.spec);
    meta.generation = ((previousMeta.generation as number) ?? 0) + (specChanged ? 1 : 0);
    meta.resourceVersion = previousMeta.resourceVersion ?? "";
    meta.managedFields = managedFields(owners);
    // A write that changes nothing (an identical apply) is not a write: same resourceVersion, no
    // event, and the managers' timestamps stay as they were.
    if (existing && deepEqual(withoutTimes(existing.object), withoutTimes(next))) return existing.object;
    if (dryRun) return next;
    meta.resourceVersion = String(++this.rv);
    const key = resourceKey(type);
    if (!this.objects.has(key)) this.objects.set(key, new Map());
    this.objects.get(key)!.set(objectKey(meta.namespace as string | undefined, meta.name as string), { object: next, owners });
    this.record({ rv: this.rv, resource: key, type: existing ? "MODIFIED" : "ADDED", object: next, previous: existing?.object });
    return next;
  }

  private record(event: StoredEvent): void {
    const at = this.now().getTime();
    this.history.push(event);
    this.recordedAt.push(at);
    const cutoff = at - this.historySeconds * 1000;
    while (this.history.length > this.historyLimit || this.recordedAt[0] < cutoff) {
      this.compactedRv = this.history.shift()!.rv;
      this.recordedAt.shift();
    }
    for (const listener of this.listeners) listener(event);
  }

  /** Forgets all history, as an API server restart loses its watch cache. */
  compactAll(): void {
    this.history.length = 0;
    this.recordedAt.length = 0;
    this.compactedRv = this.rv;
  }

  /**
   * A new resourceVersion history, as after a restart onto restored storage: objects are kept, the
   * counter jumps ahead, and every resourceVersion handed out before answers 410 on resume.
   */
  newHistory(): void {
    this.rv += 100_000;
    this.compactAll();
  }
}

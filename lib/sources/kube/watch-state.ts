// What a ResourceWatch is tuned by and what it reports: the shapes the monitor and the pages read.

export interface WatchSpec {
  /** The collection: /api/v1/nodes, /apis/apps/v1/namespaces/<ns>/deployments, ... */
  path: string;
  /** Watch only this object (fieldSelector=metadata.name=<name>). */
  name?: string;
  /** Watch only the objects with these labels (labelSelector=cloudtaser.io/inject=true). */
  labelSelector?: string;
  /** Keep at most this many objects (the LIST asks for no more); the rest are counted (ResourceWatch.cut). */
  maxItems?: number;
}

export interface WatchTuning {
  /** No event and no bookmark for this long: the watch is restarted (with a fresh LIST). */
  stallMs: number;
  backoffInitialMs: number;
  backoffMaxMs: number;
  /** The server closes the watch after this long; it is then resumed from the last resourceVersion. */
  timeoutSeconds: number;
  /** While the API does not serve the resource type (404 on LIST), ask again this often. */
  notServedRetryMs: number;
}

export const DEFAULT_WATCH_TUNING: WatchTuning = {
  stallMs: 180_000,
  backoffInitialMs: 500,
  backoffMaxMs: 10_000,
  timeoutSeconds: 300,
  notServedRetryMs: 60_000,
};

export interface WatchState {
  up: boolean;
  /** A LIST has succeeded at least once: the cache says something. */
  synced: boolean;
  /** The API does not serve this resource type (a 404 on LIST): an answer, not an outage. */
  notServed: boolean;
  /** The last time the server was heard from (LIST, an accepted WATCH, event or bookmark). */
  lastSuccess?: string;
  downSince?: string;
  lastError?: string;
  /** The server throttles this source (429, or 503 with Retry-After): since when, and when it is asked again. */
  throttled?: WatchThrottle;
  resourceVersion?: string;
  lists: number;
  reconnects: number;
  stalls: number;
  expired: number;
}

export interface WatchThrottle {
  since: string;
  status: number;
  retryAfterSeconds: number;
  retryAt: string;
}

/** The key of an object in the cache: namespace/name. */
export const keyOf = (object: unknown) => {
  const meta = (object as { metadata?: { namespace?: string; name?: string } } | null)?.metadata;
  return meta?.name ? `${meta.namespace ?? ""}/${meta.name}` : undefined;
};
export const rvOf = (object: unknown) => (object as { metadata?: { resourceVersion?: unknown } } | null)?.metadata?.resourceVersion;
export const redact = (text: string) => text.replace(/Bearer\s+\S+/gi, "Bearer ***").slice(0, 300);

/**
 * The objects as last seen, keyed by namespace/name, in the order the server listed them. With a bound, objects
 * beyond it are not kept, only counted: those the LIST left out (`unlisted`) and those seen since by key.
 */
export class ObjectCache {
  private readonly objects = new Map<string, unknown>();
  private readonly beyond = new Set<string>();
  private unlisted = 0;
  private itemsCache?: unknown[];

  constructor(private readonly max = Infinity) {}

  /** How many matching objects are known and not kept. */
  get cut(): number {
    return this.unlisted + this.beyond.size;
  }

  /** A LIST's items; its metadata says whether a bounded LIST left some out. */
  replace(items: unknown[], metadata?: { continue?: unknown; remainingItemCount?: unknown }): void {
    this.objects.clear();
    this.beyond.clear();
    this.unlisted = unlistedOf(metadata);
    this.itemsCache = undefined;
    for (const item of items) {
      const key = keyOf(item);
      if (!key) continue;
      if (this.objects.size < this.max || this.objects.has(key)) this.objects.set(key, item);
      else this.beyond.add(key);
    }
  }

  /** Applies a watch event; whether the objects changed (a BOOKMARK or an unknown type changes nothing). */
  apply(type: string, object: unknown): boolean {
    const key = keyOf(object);
    if (!key) return false;
    if (type === "DELETED") {
      if (!this.objects.delete(key)) return this.forget(key);
    } else if (type === "ADDED" || type === "MODIFIED") {
      if (!this.objects.has(key) && this.objects.size >= this.max) return this.count(key, type);
      // A MODIFIED object neither kept nor counted by key is one the LIST left out.
      if (!this.objects.has(key) && !this.beyond.delete(key) && type === "MODIFIED" && this.unlisted > 0) this.unlisted--;
      this.objects.set(key, object);
    } else return false;
    this.itemsCache = undefined;
    return true;
  }

  // An object not kept: a MODIFIED one the LIST left out is now known by key; the count changes, the objects do not.
  private count(key: string, type: string): boolean {
    if (this.beyond.has(key)) return false;
    if (type === "MODIFIED" && this.unlisted > 0) this.unlisted--;
    this.beyond.add(key);
    return type === "ADDED";
  }

  private forget(key: string): boolean {
    if (this.beyond.delete(key)) return true;
    if (this.unlisted === 0) return false;
    this.unlisted--;
    return true;
  }

  /** The same array until something changes, so consumers can tell "unchanged" by reference. */
  items(): unknown[] {
    this.itemsCache ??= [...this.objects.values()];
    return this.itemsCache;
  }

  first(): unknown {
    return this.objects.values().next().value ?? null;
  }
}

/** The selectors every LIST and WATCH of a spec carries. */
export function selectorsOf(spec: WatchSpec): Record<string, string> {
  return {
    ...(spec.name ? { fieldSelector: `metadata.name=${spec.name}` } : {}),
    ...(spec.labelSelector ? { labelSelector: spec.labelSelector } : {}),
  };
}

/** With a bound, the server sends no more than it: the first page of a paged LIST, whose resourceVersion is a snapshot to watch from. */
export function listQuery(spec: WatchSpec): string {
  const params = new URLSearchParams({ ...selectorsOf(spec), ...(spec.maxItems ? { limit: String(spec.maxItems) } : {}) }).toString();
  return params ? `?${params}` : "";
}

/** How many objects a bounded LIST left out: its count when the server gives one (not with a selector), else at least one. */
function unlistedOf(metadata: { continue?: unknown; remainingItemCount?: unknown } | undefined): number {
  if (typeof metadata?.continue !== "string" || metadata.continue === "") return 0;
  const n = metadata.remainingItemCount;
  return typeof n === "number" && Number.isInteger(n) && n > 0 ? n : 1;
}

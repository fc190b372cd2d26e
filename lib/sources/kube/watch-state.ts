// What a ResourceWatch is tuned by and what it reports: the shapes the monitor and the pages read.

export interface WatchSpec {
  /** The collection: /api/v1/nodes, /apis/apps/v1/namespaces/<ns>/deployments, ... */
  path: string;
  /** Watch only this object (fieldSelector=metadata.name=<name>). */
  name?: string;
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

/** The objects as last seen, keyed by namespace/name, in the order the server listed them. */
export class ObjectCache {
  private readonly objects = new Map<string, unknown>();
  private itemsCache?: unknown[];

  replace(items: unknown[]): void {
    this.objects.clear();
    this.itemsCache = undefined;
    for (const item of items) {
      const key = keyOf(item);
      if (key) this.objects.set(key, item);
    }
  }

  /** Applies a watch event; whether the objects changed (a BOOKMARK or an unknown type changes nothing). */
  apply(type: string, object: unknown): boolean {
    const key = keyOf(object);
    if (!key) return false;
    if (type === "DELETED") this.objects.delete(key);
    else if (type === "ADDED" || type === "MODIFIED") this.objects.set(key, object);
    else return false;
    this.itemsCache = undefined;
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

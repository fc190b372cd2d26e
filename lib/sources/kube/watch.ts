import "server-only";
import { getResource, KubeHttpError, type KubeAccess } from "./client";
import { throttleDelayMs, throttleOf } from "./http-error";
import { openWatch, type WatchStream } from "./watch-stream";
import { DEFAULT_WATCH_TUNING, ObjectCache, listQuery, redact, rvOf, selectorsOf, type WatchSpec, type WatchState, type WatchTuning } from "./watch-state";

export { DEFAULT_WATCH_TUNING, type WatchSpec, type WatchState, type WatchThrottle, type WatchTuning } from "./watch-state";

// A LIST then WATCH of one resource collection (or one named object in it), kept in memory: an
// informer written for what the monitor needs. It asks for bookmarks, relists on 410 Gone, reconnects
// with capped, jittered backoff, and a watchdog restarts a watch gone silent (no event, no bookmark).
// Up/down as for every source: one dropped connection that reconnects at once is not an outage, a second
// failure in a row is. A WATCH the server accepted is up at once; throttling (429, or 503 with
// Retry-After) is not an outage: it is shown as such and the next try waits Retry-After.

type Phase = "idle" | "listing" | "watching" | "waiting";

export class ResourceWatch {
  readonly state: WatchState = { up: false, synced: false, notServed: false, lists: 0, reconnects: 0, stalls: 0, expired: 0 };
  private readonly cache: ObjectCache;
  private generation = 0;
  private phase: Phase = "idle";
  private controller?: WatchStream;
  private retry?: NodeJS.Timeout;
  private watchdog?: NodeJS.Timeout;
  private lastHeard = 0;
  private watchStarted = 0;
  /** When the current WATCH was accepted (0 while connecting). */
  private acceptedAt = 0;
  private failures = 0;
  /** Whether the watch delivered anything since the last LIST, and how many 410s came in a row without. */
  private heardSinceList = false;
  /** Set while the last failure was the network's (refused, reset, timed out, silent), not an HTTP answer. */
  private failedOn?: "list" | "watch";
  private expiredInARow = 0;
  private firstFailureAt?: string;
  private stopped = true;

  constructor(
    readonly spec: WatchSpec,
    private readonly access: () => KubeAccess,
    /** Called after every state change: `changed` when the objects or up/down/throttled moved, else only counters or times. */
    private readonly onChange: (changed: boolean) => void,
    private readonly tuning: WatchTuning = DEFAULT_WATCH_TUNING,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.cache = new ObjectCache(spec.maxItems);
  }

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.watchdog = setInterval(() => this.checkStall(), Math.max(100, Math.min(5_000, this.tuning.stallMs / 4)));
    this.watchdog.unref();
    void this.relist();
  }

  stop(): void {
    this.stopped = true;
    this.generation++;
    this.phase = "idle";
    this.closeStream();
    if (this.retry) clearTimeout(this.retry);
    if (this.watchdog) clearInterval(this.watchdog);
  }

  /**
   * The objects as last seen, in the order the server listed them (kept while the source is down). The
   * same array until something changes, so consumers can tell "unchanged" by reference.
   */
  items(): unknown[] {
    return this.cache.items();
  }

  /** Matching objects beyond spec.maxItems, known and not kept. */
  cut(): number {
    return this.cache.cut;
  }

  /** The named object, null when it does not exist (or its type is not served), undefined before the first LIST. */
  object(): unknown {
    if (!this.state.synced) return undefined;
    return this.cache.first();
  }

  private async relist(): Promise<void> {
    if (this.stopped) return;
    const generation = ++this.generation;
    this.controller?.abort();
    this.phase = "listing";
    try {
      // "No byte for this long" bounds a LIST as the stall bound bounds a watch (a blackholed connection).
      const list = (await getResource(this.access(), `${this.spec.path}${listQuery(this.spec)}`, Math.min(30_000, this.tuning.stallMs))) as {
        items?: unknown;
        metadata?: { resourceVersion?: unknown; continue?: unknown; remainingItemCount?: unknown };
      };
      if (generation !== this.generation) return;
      if (!Array.isArray(list?.items)) throw new Error(`LIST ${this.spec.path}: the answer has no items array`);
      this.cache.replace(list.items, list.metadata);
      this.state.resourceVersion = typeof list.metadata?.resourceVersion === "string" ? list.metadata.resourceVersion : undefined;
      this.heardSinceList = false;
      this.state.lists++;
      this.state.notServed = false;
      this.heard();
      this.onChange(true);
      void this.watch(generation);
    } catch (error) {
      if (generation !== this.generation) return;
      if (error instanceof KubeHttpError && error.code === 404) {
        // The cluster has no such resource type (not OpenShift, or the CRD is not installed yet).
        this.cache.replace([]);
        this.state.notServed = true;
        this.state.lists++;
        this.heard();
        this.onChange(true);
        this.phase = "waiting";
        this.retry = setTimeout(() => void this.relist(), this.tuning.notServedRetryMs);
        this.retry.unref();
        return;
      }
      this.fail(error, "list");
    }
  }

  private async watch(generation: number): Promise<void> {
    if (this.stopped || generation !== this.generation) return;
    this.phase = "watching";
    this.lastHeard = Date.now();
    this.watchStarted = Date.now();
    this.acceptedAt = 0;
    const params: Record<string, string | number | boolean> = { allowWatchBookmarks: true, timeoutSeconds: this.tuning.timeoutSeconds };
    if (this.state.resourceVersion) params.resourceVersion = this.state.resourceVersion;
    Object.assign(params, selectorsOf(this.spec));
    try {
      const stream = await openWatch(
        this.access(),
        this.spec.path,
        params,
        (type, object) => {
          if (generation === this.generation) this.event(type, object);
        },
        (error) => {
          if (generation === this.generation && !this.stopped) this.ended(error);
        },
        Math.min(30_000, this.tuning.stallMs),
      );
      if (generation !== this.generation || this.stopped) return stream.abort();
      this.controller = stream;
      this.accepted();
    } catch (error) {
      if (generation === this.generation) this.fail(error, "watch");
    }
  }

  /** The server accepted the WATCH: it is reachable and serving, which is all "up" means. */
  private accepted(): void {
    this.acceptedAt = Date.now();
    this.lastHeard = Date.now();
    const wasUp = this.state.up;
    this.state.up = true;
    this.state.downSince = undefined;
    this.state.throttled = undefined;
    this.state.lastSuccess = this.now().toISOString();
    this.onChange(!wasUp);
  }

  private event(type: string, object: unknown): void {
    this.lastHeard = Date.now();
    if (type === "ERROR") {
      const status = object as { code?: unknown; message?: unknown } | null;
      if (status?.code === 410) {
        // Older than the server's history: relist. A 410 again straight after that LIST would loop: back off.
        this.state.expired++;
        this.state.resourceVersion = undefined;
        this.closeStream();
        this.expiredInARow = this.heardSinceList ? 1 : this.expiredInARow + 1;
        const n = this.expiredInARow - 1;
        this.retryIn(n === 0 ? 0 : Math.round(this.backoffMs(n) * (0.5 + Math.random() * 0.5)), "list");
        this.onChange(false);
        return;
      }
      this.fail(new Error(`watch ${this.spec.path}: ${typeof status?.message === "string" ? status.message : "error event"}`), "watch");
      return;
    }
    const rv = rvOf(object);
    if (typeof rv === "string" && rv) this.state.resourceVersion = rv;
    this.heardSinceList = true;
    this.heard();
    this.onChange(this.cache.apply(type, object));
  }

  /** The watch connection closed: the server's timeout (resume at once) or an error (back off). */
  private ended(error: unknown): void {
    this.controller = undefined;
    if (this.phase !== "watching") return; // an ERROR event already moved on (relist or retry)
    const lived = Date.now() - this.watchStarted;
    if (!error && lived > 1_000) {
      this.state.reconnects++;
      this.onChange(false);
      void this.watch(this.generation);
      return;
    }
    this.fail(error ?? new Error(`watch ${this.spec.path} closed after ${lived} ms`), "watch");
  }

  private checkStall(): void {
    if (this.stopped || this.phase !== "watching") return;
    const silent = Date.now() - this.lastHeard;
    if (silent < this.tuning.stallMs) return;
    this.state.stalls++;
    this.generation++;
    this.closeStream();
    // A silent watch may have missed events: the next attempt lists afresh.
    this.state.resourceVersion = undefined;
    this.fail(new Error(`watch ${this.spec.path} went silent: no event or bookmark for ${Math.round(silent / 1000)} s; restarted`), "stall");
  }

  private heard(): void {
    this.failures = 0;
    this.firstFailureAt = undefined;
    this.state.up = true;
    this.state.synced = true;
    this.state.lastSuccess = this.now().toISOString();
    this.state.downSince = undefined;
    this.state.throttled = undefined;
  }

  private fail(error: unknown, phase: "list" | "watch" | "stall"): void {
    if (this.stopped) return;
    this.closeStream();
    const throttle = throttleOf(error);
    if (throttle) return this.throttled(error as Error, throttle, phase);
    // A watch that was accepted and served for a while before it broke starts a fresh count.
    if (phase === "watch" && this.acceptedAt > 0 && Date.now() - this.acceptedAt > 1_000) {
      this.failures = 0;
      this.firstFailureAt = undefined;
    }
    this.acceptedAt = 0;
    this.failedOn = error instanceof KubeHttpError ? undefined : phase === "watch" ? "watch" : "list";
    this.failures++;
    this.firstFailureAt ??= this.now().toISOString();
    const message = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
    this.state.lastError = redact(message);
    // One dropped connection that comes back at once is not an outage; two failures in a row are.
    const wasUp = this.state.up;
    if (this.failures >= 2 || !this.state.synced) {
      this.state.up = false;
      this.state.downSince ??= this.firstFailureAt;
    }
    if (!this.state.up) this.state.throttled = undefined; // an outage now, not throttling
    this.onChange(wasUp !== this.state.up);
    const base = this.backoffMs(this.failures - 1);
    const delay = phase === "stall" && this.failures === 1 ? 0 : Math.round(base * (0.5 + Math.random() * 0.5));
    this.retryIn(delay, phase);
  }

  /**
   * Throttled: the server answered and asked for a pause. Not a failure toward "down"; the source keeps
   * its objects and state, says since when it is throttled, and is asked again after Retry-After.
   */
  private throttled(error: Error, throttle: { status: number; retryAfterSeconds: number }, phase: "list" | "watch" | "stall"): void {
    const delay = throttleDelayMs(throttle);
    const at = this.now();
    this.state.lastError = redact(error.message);
    const retryAt = new Date(at.getTime() + delay).toISOString();
    this.state.throttled = {
      since: this.state.throttled?.since ?? at.toISOString(),
      status: throttle.status,
      retryAfterSeconds: throttle.retryAfterSeconds,
      retryAt,
    };
    // An answer, even "come back later", shows the server is reachable: an outage before it is over.
    this.failures = 0;
    this.firstFailureAt = undefined;
    this.state.up = true;
    this.state.downSince = undefined;
    this.onChange(true);
    this.retryIn(delay, phase);
  }

  private closeStream(): void {
    this.controller?.abort();
    this.controller = undefined;
  }

  private backoffMs = (step: number) => Math.min(this.tuning.backoffMaxMs, this.tuning.backoffInitialMs * 2 ** Math.min(step, 16));

  /**
   * Another request to the same API server has just been answered: a watch that is down for a network
   * reason tries again now instead of waiting out its backoff, or a request a blackhole still holds.
   */
  nudge(): void {
    if (this.stopped || this.state.up || !this.failedOn) return;
    const phase = this.failedOn;
    this.failedOn = undefined;
    this.closeStream();
    this.retryIn(0, phase);
  }

  private retryIn(delay: number, phase: "list" | "watch" | "stall"): void {
    const generation = ++this.generation;
    this.phase = "waiting";
    if (this.retry) clearTimeout(this.retry);
    this.retry = setTimeout(() => {
      if (generation !== this.generation) return;
      // Resume from the last resourceVersion when there is one; the server answers 410 if it is too old.
      if (this.state.resourceVersion && phase === "watch") void this.watch(generation);
      else void this.relist();
    }, delay);
    this.retry.unref();
  }
}

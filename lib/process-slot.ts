// A value that exists once per process, not once per copy of a module: `next dev` evaluates a module again on
// each reload, and the server bundle, instrumentation and scripts/start.ts each load their own copy. globalThis is
// the one object they share, so each slot lives there under a registered symbol ("faultline." + its name).

export interface ProcessSlot<T> {
  get(): T | undefined;
  set(value: T): T;
  /** The slot's value, made (once per process) when it has none. */
  getOrCreate(make: () => T): T;
}

const shared: { [key: symbol]: unknown } = globalThis;

/** The process-wide slot `name`; every caller that names it must agree on its type `T`. */
export function processSlot<T>(name: string): ProcessSlot<T> {
  const key = Symbol.for(`faultline.${name}`);
  // Only slots named `name` write this symbol, and all of them hold a T: reading it back as one is safe.
  const get = () => shared[key] as T | undefined;
  const set = (value: T) => {
    shared[key] = value;
    return value;
  };
  return {
    get,
    set,
    getOrCreate: (make) => {
      const held = get();
      return held !== undefined ? held : set(make());
    },
  };
}

const shutdownHooks = processSlot<(() => Promise<void>)[]>("shutdown-hooks");

/** Work to do before the process exits on SIGTERM (scripts/start.ts runs it before closing the server). */
export function onShutdown(hook: () => Promise<void>): void {
  const hooks = shutdownHooks.getOrCreate(() => []);
  if (!hooks.includes(hook)) hooks.push(hook);
}

/** Runs every shutdown hook, each bounded by `timeoutMs`; a failing one does not stop the others. */
export async function runShutdownHooks(timeoutMs: number): Promise<void> {
  const hooks = shutdownHooks.get() ?? [];
  await Promise.all(hooks.map((hook) => Promise.race([hook().catch(() => undefined), new Promise((r) => setTimeout(r, timeoutMs).unref())])));
}

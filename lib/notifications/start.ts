import "server-only";
import { getDb } from "@/lib/db/client";
import { loadEnv, publicUrl } from "@/lib/env";
import { announceIncidents } from "@/lib/live/bus";
import { processSlot } from "@/lib/process-slot";
import { startWorker, type RunningWorker } from "./worker";

// The server process's notification worker, started once per process (kept on globalThis for dev reloads).

const worker = processSlot<RunningWorker>("notifications");

/**
 * Starts the worker when receivers are configured. Without any, nothing is written to the outbox and nothing is
 * claimed: a process started without the configuration does not fail the rows another process would deliver.
 */
export function startNotifications(version: string): RunningWorker | undefined {
  const running = worker.get();
  if (running) return running;
  const env = loadEnv();
  const receivers = env.FAULTLINE_NOTIFY_WEBHOOKS;
  if (receivers.length === 0) return undefined;
  console.log(`[faultline] notifications to ${receivers.map((r) => `${r.name} (${r.format})`).join(", ")}; links to ${publicUrl(env)}`);
  return worker.set(
    startWorker(getDb(), {
      receivers,
      retry: env.FAULTLINE_NOTIFY_RETRY,
      base: publicUrl(env),
      userAgent: `Faultline/${version}`,
      onChange: announceIncidents,
      log: (line) => console.error(`[faultline] ${line}`),
    }),
  );
}

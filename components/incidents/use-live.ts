"use client";

import { useQueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useState } from "react";

/**
 * Server-Sent Events say when to refetch (each listed stream invalidates `queryKey`); polling stays as the
 * fallback. Returns whether push works, so callers poll less often while it does.
 */
export function useLiveInvalidation(urls: string[], queryKey: QueryKey): boolean {
  const queryClient = useQueryClient();
  const [pushed, setPushed] = useState(false);
  const urlsKey = urls.join(" ");
  const keyText = JSON.stringify(queryKey);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const key = JSON.parse(keyText) as QueryKey;
    const sources = urlsKey.split(" ").filter(Boolean).map((url) => {
      const source = new EventSource(url);
      source.onopen = () => setPushed(true);
      source.onerror = () => setPushed(false);
      source.addEventListener("change", () => void queryClient.invalidateQueries({ queryKey: key }));
      return source;
    });
    return () => sources.forEach((s) => s.close());
  }, [urlsKey, keyText, queryClient]);
  return pushed;
}

/** The current time, ticking, starting from the server's render time so the first render matches. */
export function useNow(initial: number, everyMs = 15_000): number {
  const [now, setNow] = useState(initial);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

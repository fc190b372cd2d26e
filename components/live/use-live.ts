"use client";

import { useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { FLEET_EVENTS, fleetQuery, type FleetData } from "@/components/queries/fleet";
import { clusterEventsUrl, clusterHealthQuery, clusterHealthViewQuery } from "@/components/queries/health";
import { INCIDENT_EVENTS } from "@/components/queries/incidents";
import { applyFleetPush, concernsPage, nextHealth, nextHealthView, parseFleetPush, parseHealthPush, parseIncidentPush } from "./decide";

// The one way a page listens to the server. A cluster's health arrives as the change itself and is applied
// to the cached health (fetched whole only when a push cannot follow it); an incident push names the ids that
// changed, and a page refetches only when it shows one; the fleet's rows arrive whole, those that changed. Polling
// stays the fallback while the stream is down.

export type LiveFeed =
  /** Keep clusterHealthQuery(cluster) current from the cluster's pushes (`view: "summary"`: clusterHealthViewQuery). */
  | { kind: "health"; cluster: string; view?: "summary" }
  /** Refetch `queryKey` when a push names one of `shows` (omitted: any incident, for a list). */
  | { kind: "incidents"; queryKey: QueryKey; shows?: number[] }
  /** Keep fleetQuery() current: every row when the stream opens, then the rows that changed. */
  | { kind: "fleet" };

const urlOf = (feed: LiveFeed) => (feed.kind === "health" ? clusterEventsUrl(feed.cluster, feed.view) : feed.kind === "fleet" ? FLEET_EVENTS : INCIDENT_EVENTS);

/** Returns whether the streams are open, so callers poll less often while push works. */
export function useLive(feeds: LiveFeed[]): boolean {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const feedsKey = JSON.stringify(feeds);
  useEffect(() => {
    if (typeof EventSource === "undefined") return;
    const sources = (JSON.parse(feedsKey) as LiveFeed[]).map((feed) => {
      const source = new EventSource(urlOf(feed));
      source.onopen = () => setOpen(true);
      source.onerror = () => setOpen(false);
      if (feed.kind === "health")
        source.addEventListener("health", (event) => onHealth(queryClient, feed.cluster, feed.view, (event as MessageEvent<string>).data));
      else if (feed.kind === "fleet") source.addEventListener("fleet", (event) => onFleet(queryClient, (event as MessageEvent<string>).data));
      else
        source.addEventListener("incidents", (event) => {
          const ids = parseIncidentPush((event as MessageEvent<string>).data);
          if (ids && concernsPage(ids, feed.shows)) void queryClient.invalidateQueries({ queryKey: feed.queryKey });
        });
      return source;
    });
    return () => sources.forEach((s) => s.close());
  }, [feedsKey, queryClient]);
  return open;
}

function onHealth(queryClient: QueryClient, cluster: string, view: "summary" | undefined, text: string) {
  const push = parseHealthPush(text, cluster);
  if (view) {
    const query = clusterHealthViewQuery(cluster);
    const step = push ? nextHealthView(queryClient.getQueryData(query.queryKey), push) : FETCH;
    if (step.kind === "apply") queryClient.setQueryData(query.queryKey, step.data);
    else if (step.kind === "fetch") fetchNow(queryClient, query.queryKey, () => queryClient.fetchQuery({ ...query, staleTime: 0 }));
    return;
  }
  const query = clusterHealthQuery(cluster);
  const step = push ? nextHealth(queryClient.getQueryData(query.queryKey), push) : FETCH;
  if (step.kind === "apply") queryClient.setQueryData(query.queryKey, step.data);
  else if (step.kind === "fetch") fetchNow(queryClient, query.queryKey, () => queryClient.fetchQuery({ ...query, staleTime: 0 }));
}

/** The pushed rows into the cached fleet; a push that does not parse or cannot be applied makes the page fetch them. */
function onFleet(queryClient: QueryClient, text: string) {
  const query = fleetQuery();
  const push = parseFleetPush(text);
  const next = push && applyFleetPush(queryClient.getQueryData<FleetData>(query.queryKey), push);
  if (next) queryClient.setQueryData(query.queryKey, next);
  else fetchNow(queryClient, query.queryKey, () => queryClient.fetchQuery({ ...query, staleTime: 0 }));
}

const FETCH = { kind: "fetch" } as const;

/** The health, now (`fetch` ignores staleTime): a poll in flight may predate the change, and a fresh answer may too. */
function fetchNow(queryClient: QueryClient, queryKey: QueryKey, fetch: () => Promise<unknown>) {
  // A failed fetch shows on the page as the query's error ("could not be reached"); nothing to do here.
  void queryClient
    .cancelQueries({ queryKey, exact: true })
    .then(fetch)
    .catch(() => undefined);
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

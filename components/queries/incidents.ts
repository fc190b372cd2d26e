import { queryOptions } from "@tanstack/react-query";
import { getJson } from "./http";
import type { IncidentDetailView, IncidentListView } from "@/components/incidents/types";
import type { ListedEvidence } from "@/lib/incidents/evidence/paste";
import type { Jsonify } from "@/lib/views/json";
import type { LogSourceView } from "@/lib/incidents/evidence/log-evidence";

// Each incidents query defined once; the server passes the first answer as initialData.

export const incidentListQuery = (search: string) =>
  queryOptions({
    queryKey: ["incidents", "list", search],
    queryFn: () => getJson<IncidentListView>(`/api/v1/incidents${search ? `?${search}` : ""}`),
  });

export const incidentQuery = (id: number) =>
  queryOptions({
    queryKey: ["incidents", "detail", id],
    queryFn: () => getJson<IncidentDetailView>(`/api/v1/incidents/${id}`),
  });

/** The incident's evidence, under its detail's key: whatever refreshes the incident refreshes it too. */
export const incidentEvidenceQuery = (id: number) =>
  queryOptions({
    queryKey: ["incidents", "detail", id, "evidence"],
    queryFn: () => getJson<{ evidence: Jsonify<ListedEvidence>[] }>(`/api/v1/incidents/${id}/evidence`),
  });

/** An incident's log sources; `version` (its newest log event) changes the key when a reading lands. */
export const incidentLogsQuery = (id: number, version: string) =>
  queryOptions({
    queryKey: ["incidents", "logs", id, version],
    queryFn: () => getJson<{ sources: LogSourceView[]; bytes: number }>(`/api/v1/incidents/${id}/logs`),
  });

export const INCIDENT_EVENTS = "/api/v1/incidents/events";

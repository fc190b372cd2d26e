import { queryOptions } from "@tanstack/react-query";
import { getJson } from "./http";
import type { IncidentDetailView, IncidentListView } from "@/components/incidents/types";
import type { ListedEvidence } from "@/lib/incidents/evidence/paste";
import type { Jsonify } from "@/lib/views/json";

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

export const INCIDENT_EVENTS = "/api/v1/incidents/events";

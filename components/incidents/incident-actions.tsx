"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useRef, useState } from "react";
import { ActorField } from "./actor-field";
import { ApiError, postJson } from "@/components/queries/http";
import { FieldError } from "./field-error";
import { useCan } from "@/components/viewer";

interface Props {
  id: number;
  status: string;
}

/** Acknowledge, add a note, resolve: each posts, shows the server's refusal beside the fields, and keeps what was typed. */
export function IncidentActions({ id, status }: Props) {
  const queryClient = useQueryClient();
  const canAct = useCan("responder");
  const [note, setNote] = useState("");
  const [resolution, setResolution] = useState("");
  // One key per note being written: a retry after a lost answer adds it once.
  const noteKey = useRef<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["incidents"] });

  const addNote = useMutation({
    mutationFn: () => {
      noteKey.current ??= newKey();
      return postJson(`/api/v1/incidents/${id}/notes`, { text: note }, { "Idempotency-Key": noteKey.current });
    },
    onSuccess: () => {
      noteKey.current = null;
      setNote("");
      return refresh();
    },
  });
  const resolve = useMutation({
    mutationFn: () => postJson(`/api/v1/incidents/${id}/resolve`, resolution.trim() ? { resolution } : {}),
    onSuccess: () => {
      setResolution("");
      return refresh();
    },
  });
  const noteId = useId();
  const resolutionId = useId();
  if (!canAct)
    return (
      <p className="muted" data-testid="incident-actions-readonly">
        Acknowledging, notes and resolving need the responder role.
      </p>
    );
  return (
    <div className="incident-actions" data-testid="incident-actions">
      <ActorField />

      <AcknowledgeButton id={id} status={status} />

      <form
        className="action"
        onSubmit={(e) => {
          e.preventDefault();
          addNote.mutate();
        }}
      >
        <label htmlFor={noteId}>Note</label>
        <textarea
          id={noteId}
          name="text"
          rows={3}
          value={note}
          onChange={(e) => {
            noteKey.current = null;
            setNote(e.target.value);
          }}
          placeholder="What you saw or did"
        />
        <FieldError errors={addNote.error instanceof ApiError ? addNote.error.fields.text : undefined} />
        <button type="submit" className="button" disabled={addNote.isPending}>
          {addNote.isPending ? "Adding…" : "Add note"}
        </button>
        <ActionError error={addNote.error} />
      </form>

      <form
        className="action"
        onSubmit={(e) => {
          e.preventDefault();
          resolve.mutate();
        }}
      >
        <label htmlFor={resolutionId}>Resolution</label>
        <textarea
          id={resolutionId}
          name="resolution"
          rows={2}
          value={resolution}
          onChange={(e) => setResolution(e.target.value)}
          placeholder="What fixed it (goes in the postmortem)"
        />
        <FieldError errors={resolve.error instanceof ApiError ? resolve.error.fields.resolution : undefined} />
        <button type="submit" className="button" disabled={status === "resolved" || resolve.isPending}>
          {resolve.isPending ? "Resolving…" : status === "resolved" ? "Resolved" : "Resolve"}
        </button>
        <ActionError error={resolve.error} />
      </form>
    </div>
  );
}

/** Acknowledge, here and on the first screen of a phone (components/incidents/what-now.tsx); nothing without the responder role. */
export function AcknowledgeButton({ id, status }: Props) {
  const queryClient = useQueryClient();
  const canAct = useCan("responder");
  const acknowledge = useMutation({
    mutationFn: () => postJson(`/api/v1/incidents/${id}/acknowledge`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["incidents"] }),
  });
  if (!canAct) return null;
  return (
    <div className="action">
      <button type="button" className="button button-primary" disabled={status !== "open" || acknowledge.isPending} onClick={() => acknowledge.mutate()}>
        {acknowledge.isPending ? "Acknowledging…" : status === "open" ? "Acknowledge" : `Acknowledge (${status})`}
      </button>
      <ActionError error={acknowledge.error} />
    </div>
  );
}

function ActionError({ error }: { error: Error | null }) {
  if (!error) return null;
  return (
    <p className="field-error" role="alert">
      Not done: {error.message}
    </p>
  );
}

/** crypto.randomUUID exists only in secure contexts; a plain-http address still needs a unique key. */
function newKey(): string {
  return typeof crypto.randomUUID === "function" ? crypto.randomUUID() : `${Date.now()}-${Math.random().toString(36).slice(2)}`;
}

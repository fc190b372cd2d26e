"use client";

import { useCallback, useState } from "react";
import type { IncidentWalk } from "./types";

/** Incident mode's answer: recorded first, then the walk moves to the server's path; on refusal it stays, note kept. */
export function useStepRecorder(incident: IncidentWalk | undefined) {
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [note, setNote] = useState("");
  const submit = useCallback(
    (node: string, answer: string | undefined, then: (path: string[]) => void) => {
      if (!incident || pending) return;
      setPending(true);
      setFailure(null);
      incident
        .record(node, answer, note)
        .then((path) => {
          setNote("");
          then(path);
        })
        .catch((error: Error) => setFailure(error.message))
        .finally(() => setPending(false));
    },
    [incident, pending, note],
  );
  return { pending, failure, note, setNote, submit };
}

"use client";

import { useViewer } from "@/components/viewer";

/** Who acts: the signed-in person, recorded as the actor of every action (the server takes it from the sign-in). */
export function ActorField() {
  const viewer = useViewer();
  return (
    <p className="field actor-field" data-testid="acting-as">
      Acting as <strong>{viewer?.user ?? "nobody"}</strong> <span className="muted">({viewer?.role ?? "no role"}; recorded on the timeline)</span>
    </p>
  );
}

"use client";

import { useState } from "react";
import { useCan } from "@/components/viewer";

/** Takes the simulated API server down or back up, to rehearse a source outage. */
export function ApiServerSwitch({ initiallyUp }: { initiallyUp: boolean }) {
  const [up, setUp] = useState(initiallyUp);
  const [busy, setBusy] = useState(false);
  const canControl = useCan("admin");
  async function flip() {
    setBusy(true);
    const response = await fetch("/api/v1/demo/api-server", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ state: up ? "down" : "up" }),
    }).catch(() => undefined);
    if (response?.ok) setUp(((await response.json()) as { state: string }).state === "up");
    setBusy(false);
  }
  return (
    <p className="panel" data-testid="api-server-switch">
      Simulated API server and endpoints: <strong>{up ? "up" : "down"}</strong>{" "}
      {canControl ? (
        <button type="button" className="button" onClick={flip} disabled={busy}>
          {up ? "Take it down" : "Bring it back"}
        </button>
      ) : null}
    </p>
  );
}

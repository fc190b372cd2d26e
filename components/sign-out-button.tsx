"use client";

import { useState } from "react";

/** Ends the session: a JSON POST from this page (the edge refuses a form post), then where the server sends us. */
export function SignOutButton() {
  const [busy, setBusy] = useState(false);
  async function signOut() {
    setBusy(true);
    const response = await fetch("/api/v1/auth/signout", { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }).catch(
      () => undefined,
    );
    window.location.assign(response?.redirected ? response.url : "/auth/signin?signed-out=1");
  }
  return (
    <button type="button" className="linklike" onClick={signOut} disabled={busy}>
      Sign out
    </button>
  );
}

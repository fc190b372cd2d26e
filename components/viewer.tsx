"use client";

import { createContext, useContext, type ReactNode } from "react";

// Who is looking and their role, from the server (app/layout.tsx): the UI hides what the role cannot do.
// The server decides (lib/auth/gate.ts); this only spares people buttons that would be refused.

export type ViewerRole = "viewer" | "responder" | "admin";
export interface ViewerInfo {
  user: string;
  role: ViewerRole;
  mode: "none" | "proxy" | "oidc";
}

const ORDER: ViewerRole[] = ["viewer", "responder", "admin"];
const Context = createContext<ViewerInfo | undefined>(undefined);

export function ViewerProvider({ viewer, children }: { viewer?: ViewerInfo; children: ReactNode }) {
  return <Context.Provider value={viewer}>{children}</Context.Provider>;
}

export function useViewer(): ViewerInfo | undefined {
  return useContext(Context);
}

/** Whether the signed-in person's role reaches `role`. */
export function useCan(role: ViewerRole): boolean {
  const viewer = useViewer();
  return viewer !== undefined && ORDER.indexOf(viewer.role) >= ORDER.indexOf(role);
}

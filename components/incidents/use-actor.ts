"use client";

import { useCallback, useSyncExternalStore } from "react";

// Who acts: there is no sign-in yet, so the on-call's name is kept in this browser and sent as `actor`.

const KEY = "faultline.actor";
const listeners = new Set<() => void>();
let memory = ""; // where localStorage is refused (private mode), the name lasts while the tab is open

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener("storage", listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener("storage", listener);
  };
}

function read(): string {
  try {
    return window.localStorage.getItem(KEY) ?? memory;
  } catch {
    return memory;
  }
}

export function useActor(): [string, (name: string) => void] {
  const actor = useSyncExternalStore(subscribe, read, () => "");
  const setActor = useCallback((name: string) => {
    memory = name;
    try {
      window.localStorage.setItem(KEY, name);
    } catch {
      // refused: `memory` holds it
    }
    listeners.forEach((l) => l());
  }, []);
  return [actor, setActor];
}

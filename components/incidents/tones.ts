// The colours of an incident's severity and status badges (times: components/ui/time.ts).

export const SEVERITY_TONE = { critical: "red", warning: "orange", info: "grey" } as const;
export const STATUS_TONE = { open: "red", acknowledged: "orange", resolved: "green" } as const;
export const toneOf = <T extends Record<string, "red" | "orange" | "grey" | "green">>(map: T, key: string) => map[key as keyof T] ?? "grey";

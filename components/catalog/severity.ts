import type { Tone } from "@/components/ui/badge";

// How severity levels read and look everywhere in the UI.

export const STARTUP_LABEL: Record<string, { label: string; short: string; tone: Tone }> = {
  yes: { label: "Blocks API-server start-up", short: "Yes", tone: "red" },
  "affected-data": { label: "Blocks start-up for affected data", short: "Affected data", tone: "orange" },
  possible: { label: "May block API-server start-up", short: "Possible", tone: "orange" },
  no: { label: "Does not block start-up", short: "No", tone: "grey" },
};

export const DATA_LOSS_LABEL: Record<string, { label: string; short: string; tone: Tone }> = {
  yes: { label: "Data can be lost", short: "Yes", tone: "red" },
  possible: { label: "Data loss possible", short: "Possible", tone: "orange" },
  "confidentiality-loss": { label: "Confidentiality loss", short: "Confidentiality", tone: "purple" },
  no: { label: "No data loss", short: "No", tone: "grey" },
};

import { clipLine } from "@/lib/model/clip-text";
import { createSignal, type Signal } from "./signal-model";

// Whether the bridge reaches the beacon relay, read from the bridge's health endpoint (clusters file:
// beacon.healthUrl): 2xx while it does. An endpoint that does not answer says nothing about the beacon.

export type BeaconInput = { status: number; body: string } | { unreachable: true; error: string };

const SUBJECT = "beacon";
const DETAIL_LIMIT = 300;

export function deriveBeaconSignals(input: BeaconInput): Signal[] {
  if ("unreachable" in input) {
    return [
      createSignal(
        "beacon.unreachable",
        SUBJECT,
        "unknown",
        `the bridge's health endpoint does not answer (${clipLine(input.error, DETAIL_LIMIT)}): the beacon's state is not known`,
        input,
        {
          kind: "bridge-unreachable",
          fields: { error: input.error },
        },
      ),
    ];
  }
  const said = clipLine(typeof input.body === "string" ? (input.body.trim().split("\n")[0] ?? "") : "", DETAIL_LIMIT);
  if (input.status >= 200 && input.status < 300)
    return [createSignal("beacon.unreachable", SUBJECT, "ok", `the bridge reaches the beacon (HTTP ${input.status})`, input)];
  return [
    createSignal(
      "beacon.unreachable",
      SUBJECT,
      "critical",
      `the bridge cannot reach the beacon: HTTP ${input.status}${said ? `, "${said}"` : ""}`,
      { status: input.status, body: said },
      { kind: "beacon-unreachable", fields: { httpStatus: input.status, said } },
    ),
  ];
}

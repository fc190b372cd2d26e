import { clipLine } from "@/lib/model/clip-text";
import type { BeaconReading } from "@/lib/sources/beacon/read-beacon";
import { createSignal, type Signal } from "./signal-model";

// Whether the bridge reaches the beacon relay, from the beacon source's reading (lib/sources/beacon): 2xx
// while it does. An endpoint that does not answer says nothing about the beacon.

const SUBJECT = "beacon";
const DETAIL_LIMIT = 300;

export function deriveBeaconSignals(input: BeaconReading): Signal[] {
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

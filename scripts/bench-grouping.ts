// npx tsx --conditions=react-server scripts/bench-grouping.ts [10,300,3000]: what grouping by cause costs a round of
// the incident rules, for rounds where N plugin fingerprints fire at once (a token expiry on N/3 nodes x 3 API
// servers): decideRound with time-only grouping, and by cause on a quiet cluster (nothing ranked: no incident has
// suspects to compare) and beside an open incident with suspects (every fingerprint ranked on its own).
import { performance } from "node:perf_hooks";
import { DEFAULT_RULES_CONFIG, parseRulesConfig } from "@/lib/incident-rules-config";
import { rankTrigger } from "@/lib/incidents/rounds/apply-round";
import { decideRound } from "@/lib/incidents/rules/rules";
import type { IncidentView } from "@/lib/incidents/rules/rule-types";
import type { Signal } from "@/lib/signals/signal-model";

const sizes = (process.argv[2] ?? "10,300,3000").split(",").map(Number);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const config = parseRulesConfig({ ...DEFAULT_RULES_CONFIG, openAfterObservations: 1 });
const detail = (n: number) => `master-${n}: keyID 1 (kekID kek-3b9a22) unhealthy: openbao: permission denied: token expired (code 403)`;

rankTrigger({ signal: "openbao.sealed", subject: "openbao", state: "critical", detail: "sealed" }); // loads the catalog once
for (const n of sizes) {
  const signals: Signal[] = Array.from({ length: n }, (_, i) => ({
    id: "kms.plugin.unhealthy",
    subject: `${["", "openshift-apiserver ", "oauth-apiserver "][i % 3]}master-${Math.floor(i / 3)}/1`,
    state: "critical",
    detail: detail(Math.floor(i / 3)),
    evidence: {},
  }));
  const open: IncidentView = {
    id: 1,
    status: "open",
    openedAt: new Date(0),
    reopenedAt: null,
    resolvedAt: null,
    members: [],
    suspects: ["webhook-misbehaving"],
  };
  const round = (rank: boolean, incidents: IncidentView[]) => {
    const t = performance.now();
    decideRound({ cluster: "bench", previous: new Map(), signals, incidents, now: new Date(), config, ...(rank ? { rankTrigger } : {}) });
    return performance.now() - t;
  };
  const [timeOnly, quiet, beside]: number[][] = [[], [], []];
  for (let i = 0; i < 5; i++) {
    timeOnly.push(round(false, []));
    quiet.push(round(true, []));
    beside.push(round(true, [open]));
  }
  const perFingerprint = ((median(beside) - median(timeOnly)) / n) * 1000;
  console.log(
    `${n} firing: time-only ${median(timeOnly).toFixed(1)} ms; by cause, quiet cluster ${median(quiet).toFixed(1)} ms, beside an incident ${median(beside).toFixed(1)} ms (${perFingerprint.toFixed(0)} µs per memberKey ranked)`,
  );
}

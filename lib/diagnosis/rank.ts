import type { ErrorClass, FailureMode } from "@/lib/catalog/schema";
import type { RootCauseGroup } from "@/lib/catalog/root-causes";
import { readAnswers, readChoices, type ChoiceAnswer, type RunbookAnswer } from "./answers";
import { classifyText, SCAN_LIMIT, type ClassHit } from "./classify";
import { choiceKey, confidences, decide, type Undecided } from "./confidence";
import { joinFacets, type Facet, type RootCause } from "./root-causes";
import type { Runbook } from "@/lib/runbooks/schema";

// Ranking the catalog's failure modes as evidence, not word overlap. What a cluster shows is turned into
// evidence: typed error classes found in its texts, signals firing, signals healthy. Each failure mode's
// catalog entry says which classes support it and which contradict it, which signals must fire when it is
// the cause, and which other modes' symptoms it explains (a root cause accounts for its cascade, so the
// symptom does not outrank it). docs/diagnosis.md explains the weights.

export interface ActiveSignal {
  signal: string;
  subject: string;
  state?: string;
  detail?: string;
  /** Texts behind the detail (the problem's fields: a plugin's whole error, a probe body); classified too. */
  texts?: string[];
  /** How often its state changed lately (an incident's transitions): a crash loop flaps, a dead plugin does not. */
  flaps?: number;
}

export interface Suspect {
  id: string;
  title: string;
  score: number;
  /** How likely this is the cause, among the suspects (0 to 1); "90%" is right about 9 times in 10 (npm run eval:diagnosis). */
  confidence: number;
  /** One line: the strongest evidence for it. */
  reason: string;
  /** What speaks for it, strongest first. */
  supports: string[];
  /** What speaks against it. */
  contradicts: string[];
  signals: string[];
  startupBlock: FailureMode["startupBlock"]["level"];
  dataLoss: FailureMode["dataLoss"]["level"];
  /** Alert names that linked it explicitly. */
  linkedBy: string[];
  /** On the first suspect only: the evidence does not separate it from the next one. */
  undecided?: Undecided;
  /** The same outage seen from other parts of the stack (catalog/root-causes.yaml); its confidence holds theirs. */
  facets?: Facet[];
  /** Why the facets are one world with it. */
  rootCause?: RootCause;
}

/** A text the incident gathered besides its signals (pasted output, a log tail, a journal), and where it came from. */
export interface EvidenceText {
  /** Where it was read, as "on …" reads it: "the pasted output (alice)", "the logs of kube-system/kms-plugin-master-1". */
  source: string;
  text: string;
}

export interface DiagnoseInput {
  /** What is not ok: firing, warning or unknown signals, or alerts, with their details. */
  active: ActiveSignal[];
  /** Texts not tied to a signal: their error classes count as a signal's do. */
  texts?: EvidenceText[];
  /** Questions the on-call answered in runbooks walked for the incident, oldest first (the latest answer counts). */
  answers?: RunbookAnswer[];
  /** Separating questions without a runbook step, answered by naming which of two suspects the check showed. */
  choices?: ChoiceAnswer[];
  /** Failure modes that describe one world from different views: answered as one (catalog/root-causes.yaml). */
  groups?: readonly RootCauseGroup[];
  /** Signals seen ok now (counter-evidence: "openbao.sealed is ok"). */
  healthy?: { signal: string; subject: string }[];
  /** Catalog ids an alert named, with the alert that named each. */
  linked?: { id: string; by: string }[];
  modes: FailureMode[];
  classes: readonly ErrorClass[];
  runbooks?: Runbook[];
  limit?: number;
}

const STATE_WEIGHT: Record<string, number> = { critical: 1, warning: 0.7, unknown: 0.25 };
/** A specific class a failure mode lists, a generic one (a wrapper), an alert naming it. */
const W = {
  classSpecific: 4,
  classHint: 1.5,
  classGeneric: 0.5,
  explainedClass: 1.5,
  unexplainedClass: -1.5,
  contradictClass: -4,
  contradictFlapping: -2,
  signal: 0.6,
  explainedSignal: 0.25,
  needFires: 1.5,
  needHealthy: -4,
  linked: 12,
  answerFor: 4,
  answerAgainst: -3,
  startup: 0.05,
  dataLoss: 0.03,
};

/** State changes within the window that make a signal "flapping". */
const FLAPPING = 2;
/** An answer whose branch leads to at most this many failure modes makes each of them a suspect by itself. */
const ANSWER_NAMES = 3;

interface Evidence {
  classes: Map<string, { hit: ClassHit; subjects: Set<string> }>;
  /**
   * Specific classes a text names beside a program's exit on them (the plugin giving up at start-up on what follows),
   * with the failure modes that exit shows as meanwhile and the words of the exit.
   */
  exits: Map<string, { showsAs: Set<string>; quote: string }>;
  /** Signals that flapped, with the subjects and the most changes seen. */
  flapping: Map<string, { subjects: Set<string>; flaps: number }>;
  firing: Map<string, { subjects: Set<string>; weight: number }>;
  healthy: Set<string>;
}

// The classes of a program's exit (catalog: exitShowsAs), per catalog.
const exitClasses = new WeakMap<readonly ErrorClass[], Map<string, ErrorClass>>();

function exitsOf(classes: readonly ErrorClass[]): Map<string, ErrorClass> {
  let exits = exitClasses.get(classes);
  if (!exits) exitClasses.set(classes, (exits = new Map(classes.filter((c) => c.exitShowsAs.length > 0).map((c) => [c.id, c]))));
  return exits;
}

function gather(active: ActiveSignal[], healthy: { signal: string }[], classes: readonly ErrorClass[], texts: EvidenceText[] = []): Evidence {
  const found: Evidence = { classes: new Map(), exits: new Map(), flapping: new Map(), firing: new Map(), healthy: new Set() };
  const exitWrappers = exitsOf(classes);
  // 100,000 alerts share a few texts: each distinct text is classified once.
  const classified = new Map<string, ClassHit[]>();
  const classify = (text: string, subject: string) => {
    let hits = classified.get(text);
    if (!hits) classified.set(text, (hits = classifyText(text, classes)));
    for (const hit of hits) {
      const held = found.classes.get(hit.id) ?? { hit, subjects: new Set<string>() };
      held.subjects.add(subject);
      found.classes.set(hit.id, held);
    }
    // "initialize status cache: … transit version rollback rejected": the plugin exited on the cause its exit line names
    // after the wrapper's words. What comes before them on that line (the API server's failed dial, joined with "; ")
    // is how the exit looks, not its cause.
    for (const exit of hits.filter((h) => exitWrappers.has(h.id))) {
      const wrapper = exitWrappers.get(exit.id)!;
      for (const line of text.slice(0, SCAN_LIMIT).split("\n")) {
        const ends = wrapper.patterns.map((p) => p.exec(line)).flatMap((m) => (m ? [m.index + m[0].length] : []));
        if (ends.length === 0) continue;
        for (const hit of classifyText(line.slice(Math.min(...ends)), classes)) {
          if (hit.generic || exitWrappers.has(hit.id)) continue;
          const held = found.exits.get(hit.id) ?? { showsAs: new Set<string>(), quote: exit.quote };
          for (const id of wrapper.exitShowsAs) held.showsAs.add(id);
          found.exits.set(hit.id, held);
        }
      }
    }
  };
  for (const a of active) {
    const weight = STATE_WEIGHT[a.state ?? "critical"] ?? 1;
    const seen = found.firing.get(a.signal) ?? { subjects: new Set<string>(), weight: 0 };
    seen.subjects.add(a.subject);
    seen.weight = Math.max(seen.weight, weight);
    found.firing.set(a.signal, seen);
    if ((a.flaps ?? 0) >= FLAPPING) {
      const flapping = found.flapping.get(a.signal) ?? { subjects: new Set<string>(), flaps: 0 };
      flapping.subjects.add(a.subject);
      flapping.flaps = Math.max(flapping.flaps, a.flaps!);
      found.flapping.set(a.signal, flapping);
    }
    // An unknown signal's detail says why it could not be judged, not what is wrong.
    if (weight < 0.5) continue;
    for (const text of [a.detail ?? "", ...(a.texts ?? [])]) if (text) classify(text, a.subject);
  }
  for (const t of texts) if (t.text) classify(t.text, t.source);
  // A journal or a log is kept line by line; what only their order says (a unit stopped and started again with no
  // failure between, the kubelet started before the plugin) is read from each source's lines together, latest kept.
  const bySource = new Map<string, string[]>();
  for (const t of texts) if (t.text) bySource.set(t.source, [...(bySource.get(t.source) ?? []), t.text]);
  for (const [source, lines] of bySource) if (lines.length > 1) classify(lines.join("\n").slice(-SCAN_LIMIT), source);
  for (const h of healthy) if (!found.firing.has(h.signal)) found.healthy.add(h.signal);
  return found;
}

function listSubjects(subjects: Set<string>): string {
  const first = [...subjects].slice(0, 3).join(", ");
  return subjects.size > 3 ? `${first} and ${subjects.size - 3} more` : first;
}

interface ModeIndex {
  byId: Map<string, FailureMode>;
  /** How many failure modes each signal detects: a rare one says more. */
  detectors: Map<string, number>;
  /** Classes some failure mode claims: seen but not explained, such a class argues for another cause. */
  claimed: Set<string>;
}

// One index per catalog: grouping ranks each firing signal on its own, thousands of times a round.
const indexes = new WeakMap<FailureMode[], ModeIndex>();

function indexOf(modes: FailureMode[]): ModeIndex {
  let index = indexes.get(modes);
  if (index) return index;
  const detectors = new Map<string, number>();
  for (const mode of modes) for (const s of mode.signals) detectors.set(s, (detectors.get(s) ?? 0) + 1);
  index = {
    byId: new Map(modes.map((m) => [m.id, m])),
    detectors,
    claimed: new Set(modes.flatMap((m) => [...(m.diagnosis?.supports ?? []), ...(m.diagnosis?.hints ?? [])])),
  };
  indexes.set(modes, index);
  return index;
}

/** Whether a failure mode lists the class as evidence for it. */
const reads = (mode: FailureMode | undefined, classId: string) =>
  !!mode?.diagnosis && (mode.diagnosis.supports.includes(classId) || mode.diagnosis.hints.includes(classId));

export function diagnose(input: DiagnoseInput): Suspect[] {
  const { modes, classes, linked = [], limit = 10 } = input;
  const evidence = gather(input.active, input.healthy ?? [], classes, input.texts);
  const { byId, detectors, claimed } = indexOf(modes);
  const rarity = (signal: string) => Math.log(1 + modes.length / (detectors.get(signal) ?? 1));
  const maxRarity = Math.log(1 + modes.length);
  const answered = [
    ...readAnswers(input.runbooks ?? [], input.answers ?? [], (id) => byId.has(id)),
    ...readChoices(input.choices ?? [], (id) => byId.get(id)?.title),
  ];
  /** Failure modes whose needed signal is seen ok: never an answer's root or facet. */
  const ruledOut = new Set<string>();

  const scored: Omit<Suspect, "confidence">[] = [];
  /** A cause the plugin exited on, with the failure modes it looks like meanwhile: answered as one (below). */
  const exited: RootCauseGroup[] = [];
  for (const mode of modes) {
    const d = mode.diagnosis;
    // What the plugin's exit on this cause shows as (not running, no socket) is this cause's cascade; a view that reads
    // what the exit names itself (a socket directory missing: the socket is unavailable) is a rival cause, not a view.
    const exitedOn = [...(d?.supports ?? []), ...(d?.hints ?? [])].filter((id) => evidence.exits.has(id));
    const showsAs = [...new Set(exitedOn.flatMap((id) => [...evidence.exits.get(id)!.showsAs].filter((view) => !reads(byId.get(view), id))))].filter(
      (id) => id !== mode.id && byId.has(id),
    );
    if (showsAs.length > 0)
      exited.push({
        id: `exit-${mode.id}`,
        title: `${mode.title}, and the plugin that exits on it`,
        roots: [mode.id],
        facets: showsAs,
        reason: `The plugin gave up at start-up on it ("${evidence.exits.get(exitedOn[0])!.quote}"), so meanwhile it is not running and its socket is gone.`,
        from: "the plugin's own exit, read in the evidence",
      });
    const explained = [...new Set([...(d?.explains ?? []), ...showsAs])].map((id) => byId.get(id)).filter((m): m is FailureMode => !!m);
    const linkedBy = [...new Set(linked.filter((l) => l.id === mode.id).map((l) => l.by))];
    const pro: [number, string][] = [];
    const con: [number, string][] = [];
    let supported = linkedBy.length > 0;
    if (linkedBy.length > 0) pro.push([W.linked, `named by the alert ${linkedBy.join(", ")}`]);
    // What its cascade shows counts only for a root cause with evidence of its own: without it, every failure mode
    // that explains "the plugin is down" would be a suspect of every dead plugin.
    const cascade: [number, string][] = [];
    let ownSpecific = linkedBy.length > 0;
    for (const a of answered) {
      if (a.leadsTo.includes(mode.id)) {
        // An answer's weight is shared by the causes its branch leads to: near the root of a tree it says little of each.
        const names = a.leadsTo.length <= ANSWER_NAMES;
        supported ||= names;
        ownSpecific ||= names;
        pro.push([W.answerFor / a.leadsTo.length, a.said]);
      } else if (a.leadsAway.includes(mode.id)) con.push([W.answerAgainst, `${a.said}; only another answer leads to it`]);
    }

    for (const [id, { hit, subjects }] of evidence.classes) {
      const where = `on ${listSubjects(subjects)}`;
      if (d?.supports.includes(id)) {
        supported = true;
        ownSpecific ||= !hit.generic;
        pro.push([hit.generic ? W.classGeneric : W.classSpecific, `the text says "${hit.quote}" (${hit.title}) ${where}`]);
      } else if (d?.hints.includes(id)) {
        supported = true;
        ownSpecific ||= !hit.generic;
        pro.push([hit.generic ? W.classGeneric : W.classHint, `the text says "${hit.quote}" (${hit.title}) ${where}`]);
      } else if (d?.contradicts.includes(id)) {
        con.push([W.contradictClass, `the text says "${hit.quote}" (${hit.title}) ${where}`]);
      } else if (explained.some((m) => m.diagnosis?.supports.includes(id) || m.diagnosis?.hints.includes(id))) {
        cascade.push([hit.generic ? W.classGeneric / 2 : W.explainedClass, `explains "${hit.quote}" (${hit.title}) ${where}`]);
      } else if (claimed.has(id)) {
        // A wrapper's words (generic) still point somewhere: a little against a cause that does not account for them.
        con.push([hit.generic ? -W.classGeneric : W.unexplainedClass, `does not explain "${hit.quote}" (${hit.title}) ${where}`]);
      }
    }
    const matched: string[] = [];
    for (const [signal, { subjects, weight }] of evidence.firing) {
      const state = weight >= 1 ? "critical" : weight >= 0.7 ? "warning" : "unknown";
      if (mode.signals.includes(signal)) {
        matched.push(signal);
        supported ||= weight >= 0.5;
        pro.push([W.signal * rarity(signal) * weight, `${signal} ${state} on ${listSubjects(subjects)}`]);
      } else if (explained.some((m) => m.signals.includes(signal))) {
        cascade.push([W.explainedSignal * rarity(signal) * weight, `explains ${signal} ${state} on ${listSubjects(subjects)}`]);
      }
    }
    // A signal this cause needs, firing, is direct evidence of it too (the beacon unreachable for "beacon down"),
    // unless a mode it explains needs the same signal.
    const explainedNeeds = new Set(explained.flatMap((m) => m.diagnosis?.needs ?? []));
    ownSpecific ||= (d?.needs ?? []).some((need) => !explainedNeeds.has(need) && (evidence.firing.get(need)?.weight ?? 0) >= 0.5);
    if (ownSpecific) pro.push(...cascade);
    for (const [signal, { subjects, flaps }] of evidence.flapping) {
      if (!d?.flapping || !mode.signals.includes(signal)) continue;
      const text = `${signal} flapped ${flaps} times on ${listSubjects(subjects)}`;
      if (d.flapping === "contradicts") con.push([W.contradictFlapping, text]);
      else {
        supported = true;
        pro.push([d.flapping === "supports" ? W.classSpecific : W.classHint, text]);
      }
    }
    for (const need of d?.needs ?? []) {
      const fires = evidence.firing.get(need);
      // As strong as the signal is rare: "the plugin is unhealthy" fires for every plugin failure, "the beacon is unreachable" for two.
      if (fires && fires.weight >= 0.5) pro.push([(W.needFires * rarity(need)) / maxRarity, `${need} fires, as it must for this cause`]);
      else if (evidence.healthy.has(need)) {
        con.push([-W.needHealthy, `${need} is ok, and it would fire if this were the cause`]);
        ruledOut.add(mode.id);
      }
    }
    if (!supported) continue;
    const flags = (mode.startupBlock.level === "yes" ? W.startup : 0) + (mode.dataLoss.level === "yes" ? W.dataLoss : 0);
    const score = pro.reduce((s, [w]) => s + w, 0) - con.reduce((s, [w]) => s + Math.abs(w), 0) + flags;
    pro.sort((a, b) => b[0] - a[0]);
    con.sort((a, b) => Math.abs(b[0]) - Math.abs(a[0]));
    scored.push({
      id: mode.id,
      title: mode.title,
      score: Math.round(score * 100) / 100,
      reason: pro[0]?.[1] ?? "",
      supports: pro.map(([, text]) => text).slice(0, 6),
      contradicts: con.map(([, text]) => text).slice(0, 6),
      signals: matched,
      startupBlock: mode.startupBlock.level,
      dataLoss: mode.dataLoss.level,
      linkedBy,
    });
  }
  scored.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
  const answers = joinFacets(confidences(scored), [...(input.groups ?? []), ...exited], (s) => ruledOut.has(s.id));
  const ranked: Suspect[] = answers.slice(0, limit);
  const asked = new Set([
    ...(input.answers ?? []).map((a) => `${a.runbookId}\u0000${a.node}`),
    ...(input.choices ?? []).map((c) => choiceKey(c.for, c.against)),
  ]);
  const undecided = decide(ranked, byId, input.runbooks ?? [], asked);
  if (undecided && ranked[0]) ranked[0] = { ...ranked[0], undecided };
  return ranked;
}

/** Whether a new ranking differs from the stored one in a way worth a timeline event (order or members). */
export function suspectsChanged(before: Pick<Suspect, "id">[], after: Pick<Suspect, "id">[]): boolean {
  return before.length !== after.length || before.some((s, i) => s.id !== after[i].id);
}

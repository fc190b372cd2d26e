import Link from "next/link";
import type { ReactNode } from "react";
import { Badge } from "@/components/ui/badge";
import { CommandBlock } from "@/components/ui/command-block";
import type { RecoveryStep } from "@/lib/catalog/recovery";
import { sureness } from "./sureness";
import { STATUS_TONE, toneOf } from "./tones";

// The first screen of an incident on a phone (app/small-screens.css shows it below 640 px only): the state, the first
// suspect and how sure, its first recovery step with the command to copy, and Acknowledge. The rest of the page
// follows below it as on a desktop.

export interface WhatNowSuspect {
  id: string;
  title: string;
  confidence?: number;
  /** How many suspects there are: a lone one is "the only match", whatever its share. */
  of: number;
  /**
   * When the evidence does not separate it from the second: that one, and the question that would. `likely`: it is
   * named all the same, the second holding 10% or more: the question would rule that out before the fix.
   */
  undecided?: { withTitle: string; question: string; href?: string; likely?: boolean };
}

interface Props {
  status: string;
  suspect?: WhatNowSuspect;
  step?: RecoveryStep;
  /** The page's own Acknowledge action. */
  acknowledge: ReactNode;
}

export function WhatNow({ status, suspect, step, acknowledge }: Props) {
  return (
    <section className="what-now" aria-labelledby="what-now-h" data-testid="what-now">
      <h2 id="what-now-h">
        What now <Badge tone={toneOf(STATUS_TONE, status)}>{status}</Badge>
      </h2>
      {!suspect ? (
        <p className="muted">No failure mode in the catalog matches the signals yet.</p>
      ) : suspect.undecided && !suspect.undecided.likely ? (
        <Undecided suspect={suspect} undecided={suspect.undecided} />
      ) : (
        <>
          <TopSuspect suspect={suspect} />
          {suspect.undecided ? <Confirm undecided={suspect.undecided} /> : null}
          <FirstStep step={step} entry={suspect.id} />
        </>
      )}
      {acknowledge}
    </section>
  );
}

function TopSuspect({ suspect }: { suspect: WhatNowSuspect }) {
  const sure = suspect.confidence === undefined ? undefined : sureness(suspect.confidence, suspect.of);
  return (
    <p data-testid="what-now-suspect">
      <span className="muted">Top suspect:</span> <Link href={`/catalog/${suspect.id}`}>{suspect.title}</Link>{" "}
      {sure ? (
        <Badge tone={sure.tone}>
          {sure.word} · {sure.share}
        </Badge>
      ) : null}
    </p>
  );
}

/** Naming one cause would claim more than the evidence says: the next step is the question that separates the two. */
function Undecided({ suspect, undecided }: { suspect: WhatNowSuspect; undecided: NonNullable<WhatNowSuspect["undecided"]> }) {
  return (
    <div data-testid="what-now-undecided">
      <p>
        <strong>
          Cannot tell between {suspect.title} and {undecided.withTitle}
        </strong>{" "}
        from the evidence.
      </p>
      <p>
        <span className="muted">Check first:</span> {undecided.href ? <Link href={undecided.href}>{undecided.question}</Link> : undecided.question}
      </p>
    </div>
  );
}

/** A likely cause that is not sure yet: the question that would rule out the second, before its fix. */
function Confirm({ undecided }: { undecided: NonNullable<WhatNowSuspect["undecided"]> }) {
  return (
    <p data-testid="what-now-confirm">
      <span className="muted">To rule out {undecided.withTitle}:</span>{" "}
      {undecided.href ? <Link href={undecided.href}>{undecided.question}</Link> : undecided.question}
    </p>
  );
}

/** `step` is absent for a suspect that rose to the top after the page was drawn: its entry still says how to recover. */
function FirstStep({ step, entry }: { step?: RecoveryStep; entry: string }) {
  if (!step)
    return (
      <p>
        <span className="muted">First step:</span> see how to recover on <Link href={`/catalog/${entry}`}>its catalog entry</Link>.
      </p>
    );
  return (
    <div className="what-now-step" data-testid="what-now-step">
      <p>
        <span className="muted">First step:</span> <strong>{step.title}</strong>
      </p>
      {step.command ? (
        <CommandBlock command={step.command.command} label={step.command.label} />
      ) : (
        <p className="small">
          {step.text ? `${step.text} ` : null}
          <span className="muted">No command for this step.</span>
        </p>
      )}
      <p className="small">
        <Link href={step.href}>The whole step</Link> <span className="muted">in {step.where}</span>
      </p>
    </div>
  );
}

"use client";

import { useId } from "react";
import { FieldError } from "./field-error";
import { useActor } from "./use-actor";

/** "Your name": recorded as the actor of every action; kept in this browser. */
export function ActorField({ errors }: { errors?: string[] }) {
  const [actor, setActor] = useActor();
  const id = useId();
  return (
    <div className="field actor-field">
      <label htmlFor={id}>Your name (recorded on the timeline)</label>
      <input
        id={id}
        name="actor"
        autoComplete="name"
        value={actor}
        onChange={(e) => setActor(e.target.value)}
        placeholder="e.g. alex"
        aria-invalid={errors?.length ? true : undefined}
      />
      <FieldError errors={errors} />
    </div>
  );
}

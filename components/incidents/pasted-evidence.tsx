"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { clock, utc } from "@/components/ui/time";
import { ApiError, postJson } from "@/components/queries/http";
import { incidentEvidenceQuery } from "@/components/queries/incidents";
import { useCan } from "@/components/viewer";
import type { ListedEvidence, PasteResult } from "@/lib/incidents/evidence/paste";
import type { Jsonify } from "@/lib/views/json";
import { FieldError } from "./field-error";

const KIND: Record<string, string> = { pasted: "pasted", "pod-log": "pod log", journal: "journal" };

/**
 * "Add what you found": output the on-call ran (the plugin's doctor, probe or verify-key, kubectl describe, a journal,
 * an OpenBao error) becomes evidence; the answer says what it showed and whether it moved the first suspect, and the
 * incident's evidence is listed below with what each piece showed. Secrets are hidden by the server before anything is kept.
 */
export function PastedEvidence({ incidentId }: { incidentId: number }) {
  const canAct = useCan("responder");
  const queryClient = useQueryClient();
  const evidence = useQuery(incidentEvidenceQuery(incidentId));
  const [text, setText] = useState("");
  const add = useMutation({
    mutationFn: () => postJson<PasteResult>(`/api/v1/incidents/${incidentId}/evidence`, { text }),
    onSuccess: () => {
      setText("");
      return queryClient.invalidateQueries({ queryKey: ["incidents"] });
    },
  });
  const headingId = useId();
  const fieldId = useId();
  const hintId = useId();
  const textErrors = add.error instanceof ApiError ? add.error.fields.text : undefined;
  return (
    <section className="panel" aria-labelledby={headingId} data-testid="pasted-evidence">
      <h2 id={headingId}>What the on-call found</h2>
      {canAct ? (
        <form
          className="incident-actions"
          onSubmit={(e) => {
            e.preventDefault();
            add.mutate();
          }}
        >
          <div className="action">
            <label htmlFor={fieldId}>Add what you found</label>
            <p id={hintId} className="muted small">
              Paste what you ran: the plugin&apos;s <code>doctor</code>, <code>probe</code> or <code>verify-key</code>, <code>kubectl describe pod</code>,{" "}
              <code>journalctl -u</code>, an OpenBao error. Tokens, keys and passwords in it are hidden before it is kept.
            </p>
            <textarea
              id={fieldId}
              name="text"
              rows={8}
              spellCheck={false}
              value={text}
              onChange={(e) => setText(e.target.value)}
              aria-describedby={hintId}
              aria-invalid={textErrors ? true : undefined}
            />
            <FieldError errors={textErrors} />
            <button type="submit" className="button" disabled={add.isPending}>
              {add.isPending ? "Reading…" : "Add to the incident"}
            </button>
            {add.error && !textErrors ? (
              <p className="field-error" role="alert">
                Not added: {add.error.message}
              </p>
            ) : null}
          </div>
        </form>
      ) : (
        <p className="muted" data-testid="pasted-evidence-readonly">
          Adding what you found needs the responder role.
        </p>
      )}
      <div role="status" aria-live="polite" data-testid="paste-result">
        {add.data ? <PasteAnswer result={add.data} /> : null}
      </div>
      <EvidenceList rows={evidence.data?.evidence} failed={evidence.isError} />
    </section>
  );
}

function PasteAnswer({ result }: { result: PasteResult }) {
  const { evidence, top, before, moved } = result;
  return (
    <div className="callout small" data-testid="paste-answer" data-moved={moved ? "true" : "false"}>
      {top ? (
        <p>
          <strong data-testid="paste-top">{moved ? `This moved ${top.title} to the top` : `${top.title} stays first (${top.confidence})`}</strong>
          {moved && before ? ` (it was ${before.title}).` : "."}
        </p>
      ) : (
        <p>No suspect yet.</p>
      )}
      {evidence.classes.length ? (
        <ul>
          {evidence.classes.map((c) => (
            <li key={c.id}>
              {c.title}: &ldquo;{c.quote}&rdquo;
            </li>
          ))}
        </ul>
      ) : (
        <p>No error the catalog knows in these {evidence.lines} lines; it is on the timeline.</p>
      )}
      <p className="muted">
        {evidence.kept === evidence.lines ? `${evidence.lines} lines kept` : `${evidence.kept} of ${evidence.lines} lines kept`}
        {evidence.hidden ? `; ${evidence.hidden} secret${evidence.hidden === 1 ? "" : "s"} hidden` : ""}.
      </p>
    </div>
  );
}

function EvidenceList({ rows, failed }: { rows?: Jsonify<ListedEvidence>[]; failed: boolean }) {
  if (failed) return <p className="muted small">The evidence could not be loaded; it is on the timeline.</p>;
  if (!rows?.length) return <p className="muted small">No evidence added yet.</p>;
  return (
    <ol className="timeline" data-testid="evidence-list">
      {rows.map((r) => (
        <li key={r.id} data-evidence-kind={r.kind}>
          <time dateTime={r.at} title={utc(r.at)}>
            {clock(r.at)}
          </time>
          <span className="kind">
            <Badge tone="purple">{KIND[r.kind] ?? r.kind}</Badge>
          </span>
          <span className="who">{r.actor}</span>
          <div className="what">
            {r.source}:{" "}
            {r.classes.length ? (
              r.classes.map((c) => (
                <Badge key={c.id} tone="orange" title={c.id}>
                  {c.title}
                </Badge>
              ))
            ) : (
              <span className="muted">no error the catalog knows</span>
            )}
            <details>
              <summary>What was kept ({r.texts.length === 1 ? "1 piece" : `${r.texts.length} pieces`})</summary>
              <pre>{r.texts.join("\n")}</pre>
            </details>
          </div>
        </li>
      ))}
    </ol>
  );
}

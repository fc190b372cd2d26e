import type { Suggestion } from "@/lib/incidents/suspects/suggest";

/** Incident mode, above the answers: what live data suggests and why, and a note to record with the answer. */
export function IncidentStepHelp({
  suggestion,
  liveError,
  note,
  setNote,
  atLeaf,
}: {
  suggestion?: Suggestion;
  liveError?: string;
  note: string;
  setNote: (text: string) => void;
  atLeaf: boolean;
}) {
  if (atLeaf) return null;
  return (
    <>
      {suggestion ? (
        <div className="live-suggestion" data-testid="live-suggestion">
          <div>
            Live data suggests: <strong>{suggestion.answer}</strong>{" "}
            <span className="muted">
              (signal <code>{suggestion.signal}</code> is {suggestion.state})
            </span>
          </div>
          <ul className="evidence">
            {suggestion.evidence.map((x) => (
              <li key={x.subject}>
                <strong>{x.subject}</strong> {x.state}: {x.detail}
              </li>
            ))}
          </ul>
          <div className="muted small">You may choose the other answer: both the suggestion and your choice are recorded.</div>
        </div>
      ) : null}
      {liveError ? <p className="muted small">Live signals could not be refreshed ({liveError}); the server still records what it sees.</p> : null}
      <label className="step-note">
        Note for this step (optional, recorded with the answer)
        <textarea rows={2} value={note} onChange={(e) => setNote(e.target.value)} />
      </label>
    </>
  );
}

// What stands in for the incident list while Postgres answers: says what is loading, in the list's shape,
// so the page does not jump when the rows arrive.

export function IncidentListSkeleton() {
  return (
    <div className="skeleton-block" role="status" aria-live="polite" data-testid="incidents-loading">
      <p className="muted">Loading incidents from the incident store…</p>
      <div className="skeleton-rows" aria-hidden="true">
        {Array.from({ length: 4 }, (_, i) => (
          <div key={i} className="skeleton-row" />
        ))}
      </div>
    </div>
  );
}

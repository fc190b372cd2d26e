// What stands in for a page while its data is read: the page's title and what is being read, in the
// page's shape, so nothing jumps when it arrives and the reader knows what to wait for.

export function RouteLoading({ title, what, rows = 5 }: { title: string; what: string; rows?: number }) {
  return (
    <div className="skeleton-block" role="status" aria-live="polite" data-testid="route-loading">
      <h1>{title}</h1>
      <p className="muted">{what}</p>
      <div className="skeleton-rows" aria-hidden="true">
        {Array.from({ length: rows }, (_, i) => (
          <div key={i} className="skeleton-row" />
        ))}
      </div>
    </div>
  );
}

"use client";

export default function CatalogError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="callout" role="alert">
      <h1>The catalog could not be shown</h1>
      <p>{error.message || "An unexpected error occurred."}</p>
      {error.digest ? <p className="muted">Reference for the server log: {error.digest}</p> : null}
      <button type="button" className="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}

"use client";

export default function AppError({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="callout" role="alert">
      <h1>Something went wrong on this page</h1>
      <p>{error.message || "An unexpected error occurred."}</p>
      {error.digest ? <p className="muted">Reference for the server log: {error.digest}</p> : null}
      <button type="button" className="button" onClick={reset}>
        Try again
      </button>
    </div>
  );
}

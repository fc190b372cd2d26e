"use client";

import Link from "next/link";

// What a page shows when what it reads fails: which part failed, what still works, a way to try again, and
// a reference to find the cause in the server log. Never the error's text: from the server it says nothing
// useful in production, and from anywhere it may carry a stack or a secret.

export interface RouteErrorProps {
  error: unknown;
  /** Next 16: fetch the page again and render it. */
  retry?: () => void;
  /** Older boundaries: render again without fetching. */
  reset?: () => void;
}

interface Props extends RouteErrorProps {
  /** What could not be shown, e.g. "Live health could not be shown". */
  title: string;
  /** The likely cause and what it means for the reader, in one or two sentences. */
  cause: string;
  /** Pages that still work without what failed. */
  stillWorks?: { href: string; label: string }[];
}

export function RouteError({ error, retry, reset, title, cause, stillWorks = [] }: Props) {
  const digest = typeof error === "object" && error !== null && "digest" in error && typeof error.digest === "string" ? error.digest : undefined;
  const again = retry ?? reset;
  return (
    <div className="callout callout-error" role="alert" data-testid="route-error">
      <h1>{title}</h1>
      <p>{cause}</p>
      {stillWorks.length > 0 ? (
        <p>
          Still working:{" "}
          {stillWorks.map((l, i) => (
            <span key={l.href}>
              {i > 0 ? ", " : ""}
              <Link href={l.href}>{l.label}</Link>
            </span>
          ))}
          .
        </p>
      ) : null}
      <p>
        {again ? (
          <button type="button" className="button button-primary" onClick={() => again()}>
            Try again
          </button>
        ) : null}{" "}
        {digest ? <span className="muted small">Reference for the server log: {digest}</span> : null}
      </p>
    </div>
  );
}

import Link from "next/link";

export default function RunbookNotFound() {
  return (
    <div className="panel" data-testid="runbook-not-found">
      <h1>No such runbook</h1>
      <p className="lead">Runbook ids are stable, so this link was probably mistyped.</p>
      <p>
        <Link className="button button-primary" href="/runbooks">
          All runbooks
        </Link>
      </p>
    </div>
  );
}

import Link from "next/link";

/** What the incident pages show when Postgres cannot be reached: the reason, and what still works. */
export function StoreDown({ error }: { error: unknown }) {
  const message = error instanceof Error ? error.message.split("\n").filter(Boolean).pop() : String(error);
  return (
    <div className="callout store-down" role="alert" data-testid="store-down">
      <strong>The incident store (Postgres) cannot be reached</strong>, so incidents cannot be listed or changed right now.
      <br />
      Reason: <code>{message}</code>
      <br />
      Live signals do not depend on it: <Link href="/health">Live health</Link> still shows the clusters. This page retries when reloaded.
    </div>
  );
}

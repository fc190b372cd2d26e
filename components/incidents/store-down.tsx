import Link from "next/link";

/** What the incident pages show when Postgres cannot be reached: the reason, and what still works. */
export function StoreDown({ reason }: { reason: string }) {
  return (
    <div className="callout store-down" role="alert" data-testid="store-down">
      <strong>The incident store (Postgres) cannot be reached</strong>, so incidents cannot be listed or changed right now.
      <br />
      Reason: <code>{reason}</code>
      <br />
      Live signals do not depend on it: <Link href="/health">Live health</Link> still shows the clusters. This page retries when reloaded.
    </div>
  );
}

import { pageAccess } from "@/lib/auth/page";
import type { Metadata } from "next";
import Link from "next/link";
import { AuditQuery, readAudit, withoutEmpty } from "@/lib/auth/audit-query";
import { fieldErrors } from "@/lib/errors";

export const metadata: Metadata = { title: "Audit log" };

type SearchParams = Promise<Record<string, string | string[] | undefined>>;

const FILTERS = ["actor", "action", "outcome", "from", "to"] as const;

/** Who did what: every state-changing request and sign-in, and every refusal (docs/auth.md). Admins only. */
export default async function AuditPage({ searchParams }: { searchParams: SearchParams }) {
  await pageAccess("admin");
  const raw = withoutEmpty(await searchParams);
  const parsed = AuditQuery.safeParse(raw);
  const errors = parsed.success ? {} : fieldErrors(parsed.error);
  const page = parsed.success ? await readAudit(parsed.data) : { entries: [], total: 0, requests: 0, next: undefined };
  const kept = new URLSearchParams(Object.entries(raw).filter(([k]) => (FILTERS as readonly string[]).includes(k)));
  const older = new URLSearchParams(kept);
  if (page.next) older.set("before", String(page.next));
  return (
    <>
      <h1>Audit log</h1>
      <p className="lead">
        Every state-changing request, every sign-in and every refused request, newest first. Refusals alike within a few seconds are one row that counts them.
        Nothing here can be changed or removed.
      </p>
      <form className="filters" method="get" data-testid="audit-filters">
        <label>
          Who <input name="actor" defaultValue={raw.actor ?? ""} placeholder="part of a name" />
        </label>
        <label>
          Action <input name="action" defaultValue={raw.action ?? ""} placeholder="incident., demo., auth.signin" />
        </label>
        <label>
          Outcome{" "}
          <select name="outcome" defaultValue={raw.outcome ?? ""}>
            <option value="">any</option>
            <option value="allowed">allowed</option>
            <option value="refused">refused (4xx)</option>
            <option value="failed">failed (5xx)</option>
          </select>
        </label>
        <label>
          From <input name="from" defaultValue={raw.from ?? ""} placeholder="2026-11-23T10:00Z" />
        </label>
        <label>
          To <input name="to" defaultValue={raw.to ?? ""} placeholder="2026-11-23T12:00Z" />
        </label>
        <button type="submit" className="button">
          Filter
        </button>
      </form>
      {Object.entries(errors).map(([field, messages]) => (
        <p key={field} className="field-error" role="alert">
          {field}: {messages.join("; ")}
        </p>
      ))}
      <p>
        <span data-testid="audit-total">{page.total}</span> entries standing for <span data-testid="audit-requests">{page.requests}</span> requests.{" "}
        <a href={`/api/v1/audit/export?${new URLSearchParams([...kept, ["format", "json"]])}`}>Export JSON</a> ·{" "}
        <a href={`/api/v1/audit/export?${new URLSearchParams([...kept, ["format", "csv"]])}`}>Export CSV</a>
      </p>
      <table className="data" data-testid="audit-table">
        <thead>
          <tr>
            <th>When (UTC)</th>
            <th>Times</th>
            <th>Who</th>
            <th>Role</th>
            <th>What</th>
            <th>Object</th>
            <th>From</th>
            <th>Outcome</th>
          </tr>
        </thead>
        <tbody>
          {page.entries.map((e) => (
            <tr key={e.id} data-action={e.action} data-status={e.status} data-count={e.count}>
              <td data-label="When (UTC)">
                {when(e.at)}
                {e.lastAt ? <span className="sub">to {when(e.lastAt)}</span> : null}
              </td>
              <td data-label="Times">{e.count > 1 ? `×${e.count}` : "1"}</td>
              <td data-label="Who">{e.actor}</td>
              <td data-label="Role">{e.role ?? "—"}</td>
              <td data-label="What">
                <code>{e.action}</code>
                <span className="sub">
                  {e.method} {e.route}
                </span>
              </td>
              <td data-label="Object">
                {e.objectType === "incident" && /^\d+$/.test(e.objectId ?? "") ? (
                  <Link href={`/incidents/${e.objectId}`}>incident #{e.objectId}</Link>
                ) : e.objectType ? (
                  `${e.objectType} ${e.objectId}`
                ) : (
                  "—"
                )}
              </td>
              <td data-label="From">{e.remote ?? "—"}</td>
              <td data-label="Outcome" title={e.detail ?? undefined}>
                {e.status}
                {e.detail ? <span className="sub">{e.detail}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {page.next ? (
        <p>
          <Link className="button" href={`/audit?${older}`}>
            Older entries →
          </Link>
        </p>
      ) : null}
    </>
  );
}

const when = (iso: string) => iso.replace("T", " ").slice(0, 19);

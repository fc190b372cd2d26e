import Form from "next/form";
import Link from "next/link";

export interface FilterValues {
  cluster: string;
  status: string;
  severity: string;
  q: string;
  from: string;
  to: string;
}

const STATUS_OPTIONS = [
  ["", "any"],
  ["open,acknowledged", "unresolved"],
  ["open", "open"],
  ["acknowledged", "acknowledged"],
  ["resolved", "resolved"],
] as const;
const SEVERITY_OPTIONS = [
  ["", "any"],
  ["critical", "critical"],
  ["warning", "warning"],
  ["info", "info"],
] as const;

/** A GET form: the filters live in the address, and work without JavaScript. Filtering starts at the first page. */
export function IncidentFilters({ values, clusters, errors }: { values: FilterValues; clusters: string[]; errors: Record<string, string[]> }) {
  const filtered = Object.values(values).some(Boolean);
  return (
    <Form action="/incidents" className="filters incident-filters" aria-label="Filter incidents">
      <label>
        Search
        <input
          type="search"
          name="q"
          defaultValue={values.q}
          placeholder="title, subject, suspect, note"
          size={28}
          maxLength={500}
          title='Words match as prefixes ("seal" finds sealed); "quoted words" as a phrase; -word excludes; or between words'
        />
      </label>
      <label>
        Cluster
        <input name="cluster" list="incident-clusters" defaultValue={values.cluster} placeholder="any" size={14} />
        <datalist id="incident-clusters">
          {clusters.map((c) => (
            <option key={c} value={c} />
          ))}
        </datalist>
      </label>
      <label>
        Status
        <select name="status" defaultValue={values.status}>
          {STATUS_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Severity
        <select name="severity" defaultValue={values.severity}>
          {SEVERITY_OPTIONS.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        From
        <input
          name="from"
          defaultValue={values.from}
          placeholder="2026-01-01"
          size={11}
          title="Opened or reopened on or after: a date (UTC) or a time with its offset"
        />
      </label>
      <label>
        To
        <input
          name="to"
          defaultValue={values.to}
          placeholder="2026-01-31"
          size={11}
          title="Opened or reopened before: a date (that day included) or a time with its offset"
        />
      </label>
      <button type="submit" className="button">
        Filter
      </button>
      {filtered ? <Link href="/incidents">Clear filters</Link> : null}
      {Object.keys(errors).length > 0 ? (
        <p className="field-error" role="alert">
          Ignored:{" "}
          {Object.entries(errors)
            .map(([k, v]) => `${k} ${v.join("; ")}`)
            .join("; ")}
        </p>
      ) : null}
    </Form>
  );
}

import Form from "next/form";
import Link from "next/link";

export interface FilterValues {
  cluster: string;
  status: string;
  severity: string;
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

/** A GET form: the filters live in the address, and work without JavaScript. */
export function IncidentFilters({ values, clusters, errors }: { values: FilterValues; clusters: string[]; errors: Record<string, string[]> }) {
  const filtered = Boolean(values.cluster || values.status || values.severity);
  return (
    <Form action="/incidents" className="filters incident-filters" aria-label="Filter incidents">
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

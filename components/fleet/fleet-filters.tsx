import Form from "next/form";
import Link from "next/link";
import type { FleetFilterErrors } from "@/lib/fleet/fleet-filter";

// A GET form: the filter lives in the address (a link to "the critical clusters in prod" can be shared) and works
// without JavaScript.

const STATE_OPTIONS = [
  ["", "any"],
  ["critical,warning,unknown,stale", "needs attention"],
  ["critical", "critical"],
  ["warning", "warning"],
  ["unknown", "unknown"],
  ["stale", "stale"],
  ["ok", "ok"],
] as const;

export function FleetFilters({ values, errors }: { values: { state: string; q: string }; errors: FleetFilterErrors }) {
  const options: readonly (readonly [string, string])[] = STATE_OPTIONS.some(([v]) => v === values.state)
    ? STATE_OPTIONS
    : [...STATE_OPTIONS, [values.state, values.state.replaceAll(",", ", ")]];
  const problems = Object.entries(errors);
  return (
    <Form action="/fleet" className="fleet-filters" aria-label="Filter the fleet">
      {/* Labels by id, not wrapping: a wrapping label's name would take in the select's options too. */}
      <div className="fleet-field">
        <label htmlFor="fleet-q">Search</label>
        <input
          id="fleet-q"
          type="search"
          name="q"
          defaultValue={values.q}
          placeholder="name, label or key=value"
          size={28}
          maxLength={200}
          title="Every word must match: part of the name or of a label's value, a label's key, or key=value for one label"
        />
      </div>
      <div className="fleet-field">
        <label htmlFor="fleet-state">State</label>
        <select id="fleet-state" name="state" defaultValue={values.state}>
          {options.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button">
        Filter
      </button>
      {values.state || values.q ? <Link href="/fleet">Clear filters</Link> : null}
      {problems.length > 0 ? (
        <p className="field-error" role="alert" data-testid="fleet-filter-errors">
          Ignored: {problems.map(([k, v]) => `${k} ${v.join("; ")}`).join("; ")}
        </p>
      ) : null}
    </Form>
  );
}

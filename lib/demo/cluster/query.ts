import { StoreError } from "./store";

// Query parameters read as the API server's parameter codec reads them.

/** strconv.ParseBool: the spellings Go accepts. */
const TRUE = new Set(["1", "t", "T", "TRUE", "true", "True"]);
const FALSE = new Set(["0", "f", "F", "FALSE", "false", "False"]);

/** A boolean query parameter; absent is false; a spelling Go refuses is a 400, as the real server answers. */
export function boolParam(url: URL, name: string): boolean {
  const value = url.searchParams.get(name);
  if (value === null) return false;
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new StoreError(400, "BadRequest", `strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`);
}

/** A non-negative integer query parameter (limit, timeoutSeconds); absent is undefined. */
export function intParam(url: URL, name: string): number | undefined {
  const value = url.searchParams.get(name);
  if (value === null || value === "") return undefined;
  if (!/^-?\d{1,18}$/.test(value)) throw new StoreError(400, "BadRequest", `strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`);
  return Number(value);
}

/** dryRun: only "All" exists; anything else is refused as the real server's options validation does. */
export function dryRunParam(url: URL, options = "PatchOptions"): boolean {
  const values = url.searchParams.getAll("dryRun");
  if (values.length === 0) return false;
  if (values.some((v) => v !== "All")) {
    throw new StoreError(
      422,
      "Invalid",
      `${options}.meta.k8s.io "" is invalid: dryRun: Unsupported value: []string{${values.map((v) => JSON.stringify(v)).join(", ")}}: supported values: "All"`,
    );
  }
  return true;
}

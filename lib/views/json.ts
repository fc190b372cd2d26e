// What a server value looks like once it has crossed to the browser as JSON: dates become ISO strings.
// Pages hand their query's answer to client components in this shape, so the first render and a refetch agree.

export type Jsonify<T> = T extends Date ? string : T extends (infer U)[] ? Jsonify<U>[] : T extends object ? { [K in keyof T]: Jsonify<T[K]> } : T;

/** The value as the browser would receive it from the API. */
export function toJson<T>(value: T): Jsonify<T> {
  return JSON.parse(JSON.stringify(value)) as Jsonify<T>;
}

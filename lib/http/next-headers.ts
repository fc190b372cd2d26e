import { parseAndValidateFlightRouterState } from "next/dist/server/app-render/parse-and-validate-flight-router-state";

// Request headers Next.js itself parses and throws on (a 500): checked here with Next's own parser, so a
// malformed one is a 400 naming the header.

export function nextHeaderProblem(headers: Record<string, string | string[] | undefined>): string | null {
  const tree = headers["next-router-state-tree"];
  if (tree === undefined) return null;
  try {
    parseAndValidateFlightRouterState(tree);
    return null;
  } catch {
    return "the Next-Router-State-Tree header is not a router state Next.js can read";
  }
}

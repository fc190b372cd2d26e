"use client";

import { useInfiniteQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import type { HealthRow, RowCounts } from "@/lib/signals/health-view";
import type { MatrixServer, RowFilter } from "@/lib/signals/health-rows";
import { healthRowsQuery } from "@/components/queries/health";
import { MatrixRow } from "./matrix-row";

// The rows of a large matrix that the page does not hold: said how many there are, and fetched by page on
// demand. A row that is not listed must read as "hidden, one click away", never as missing data.

const fmt = (n: number) => n.toLocaleString("en");

/** Every node counted, at the top of a large matrix: the first thing read at 3 a.m. */
export function MatrixCounts({ counts, testId }: { counts: RowCounts; shown: RowCounts; testId: string }) {
  return (
    <p className="matrix-counts" data-testid={`${testId}-counts`}>
      <strong>{fmt(counts.total)} nodes</strong>: <span data-count="healthy">{fmt(counts.healthy)} healthy</span>,{" "}
      <span data-count="unhealthy" className={counts.unhealthy > 0 ? "count-bad" : undefined}>
        {fmt(counts.unhealthy)} unhealthy
      </span>
      , <span data-count="unknown">{fmt(counts.unknown)} unknown or stale</span>
      {counts.orphaned > 0 ? <span data-count="orphaned">, {fmt(counts.orphaned)} orphaned (node gone)</span> : null}
    </p>
  );
}

interface Source {
  cluster: string;
  server: MatrixServer;
  version: number;
}

interface MoreProps {
  source: Source;
  counts: RowCounts;
  shown: RowCounts;
  /** Cursor after the problem rows in view (null: all are in view). */
  next: string | null;
  keyIDs: string[];
  testId: string;
}

/** Table rows after the ones in view: more problem rows, then the healthy ones, each by page when asked for. */
export function MoreRows({ source, counts, shown, next, keyIDs, testId }: MoreProps) {
  const problems = counts.total - counts.healthy;
  const hiddenProblems = problems - (shown.total - shown.healthy);
  return (
    <>
      {hiddenProblems > 0 && next ? (
        <Pages
          source={source}
          state="problem"
          from={next}
          keyIDs={keyIDs}
          testId={`${testId}-more-problems`}
          label={`${fmt(hiddenProblems)} more nodes need attention`}
        />
      ) : null}
      {counts.healthy > 0 ? (
        <Pages
          source={source}
          state="healthy"
          from={null}
          keyIDs={keyIDs}
          testId={`${testId}-healthy`}
          label={`${fmt(counts.healthy)} of ${fmt(counts.total)} nodes report every plugin healthy and are not listed.`}
          button="Show healthy nodes"
        />
      ) : null}
    </>
  );
}

function Pages({
  source,
  state,
  from,
  keyIDs,
  testId,
  label,
  button = "Show them",
}: {
  source: Source;
  state: RowFilter;
  from: string | null;
  keyIDs: string[];
  testId: string;
  label: string;
  button?: string;
}) {
  const [open, setOpen] = useState(false);
  const query = useInfiniteQuery({ ...healthRowsQuery(source.cluster, source.server, state, from), enabled: open });
  useRefreshOnPush(source, open);
  const rows: HealthRow[] = open ? (query.data?.pages.flatMap((p) => p.rows) ?? []) : [];
  const total = query.data?.pages[query.data.pages.length - 1]?.total;
  return (
    <>
      {rows.map((row) => (
        <MatrixRow
          key={row.node}
          row={row}
          cells={keyIDs.map((k) => row.cells.find((c) => c.keyID === k))}
          keyIDs={keyIDs}
          checkedAt={query.data!.pages[0].checkedAt}
        />
      ))}
      <tr className="matrix-more" data-testid={testId}>
        <td colSpan={keyIDs.length + 1}>
          {!open ? (
            <>
              {label}{" "}
              <button type="button" className="linklike" onClick={() => setOpen(true)}>
                {button}
              </button>
            </>
          ) : query.isError ? (
            <>
              Could not load them ({query.error.message}).{" "}
              <button type="button" className="linklike" onClick={() => void query.refetch()}>
                Try again
              </button>
            </>
          ) : query.isPending ? (
            "Loading…"
          ) : (
            <>
              {fmt(rows.length)} of {fmt(total ?? rows.length)} listed.{" "}
              {query.hasNextPage ? (
                <button type="button" className="linklike" disabled={query.isFetchingNextPage} onClick={() => void query.fetchNextPage()}>
                  {query.isFetchingNextPage ? "Loading…" : "Show more"}
                </button>
              ) : null}{" "}
              <button type="button" className="linklike" onClick={() => setOpen(false)}>
                Hide them
              </button>
            </>
          )}
        </td>
      </tr>
    </>
  );
}

/** Loaded pages are fetched again when a push changed the health: a row may have turned bad or recovered. */
function useRefreshOnPush(source: Source, open: boolean) {
  const queryClient = useQueryClient();
  const seen = useRef(source.version);
  useEffect(() => {
    if (seen.current === source.version) return;
    seen.current = source.version;
    if (open) void queryClient.invalidateQueries({ queryKey: ["clusters", source.cluster, "health", "rows", source.server] });
  }, [source.version, source.cluster, source.server, open, queryClient]);
}

// Runs work once the browser has painted and is idle, so a click's visible answer comes first.
// Returns a cancel function. Falls back to a short timeout where requestIdleCallback is missing.
export function afterPaint(work: () => void, timeoutMs = 250): () => void {
  if (typeof window.requestIdleCallback === "function") {
    const handle = window.requestIdleCallback(work, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = window.setTimeout(work, 50);
  return () => window.clearTimeout(handle);
}

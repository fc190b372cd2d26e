// Next calls register() once per server process before it serves requests.
export async function register(): Promise<void> {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  const { startServerProcess } = await import("./lib/startup");
  await startServerProcess();
}

// A separate process that holds a cluster's monitor lease as a leader does (renewing every RENEW_MS) and says
// what it learns on stdout: "leading <term>" when it takes or keeps the lease after not holding it, "lost" when
// it stops leading. The test freezes it (SIGSTOP), lets it go on (SIGCONT) or kills it.
import { createClusterLease, RENEW_MS } from "../../lib/monitor/lease";

const [url, cluster, holder, leaseMs] = process.argv.slice(2);
let leading = false;
const lease = createClusterLease(url, cluster, { holder, ...(leaseMs ? { leaseMs: Number(leaseMs) } : {}) });
const check = async () => {
  try {
    const view = await lease.check();
    if (view.leading && !leading) process.stdout.write(`leading ${view.term}\n`);
    if (!view.leading && leading) process.stdout.write("lost\n");
    leading = view.leading;
  } catch {
    if (leading && !lease.fence()) process.stdout.write("lost\n");
    leading = leading && !!lease.fence();
  }
};
void check();
setInterval(() => void check(), RENEW_MS);

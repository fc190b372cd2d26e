// A separate process that takes a cluster's monitor lock, says so, and holds it until killed.
import { createClusterLock } from "../../lib/monitor/leader";

const [url, cluster] = process.argv.slice(2);
const lock = createClusterLock(url, cluster);
void lock.tryAcquire().then((held) => {
  process.stdout.write(held ? "held\n" : "not-held\n");
  setInterval(() => undefined, 1000);
});

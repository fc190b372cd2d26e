// Alertmanager's deliveries: the largest accepted whole. Past either bound Faultline answers 503, so Alertmanager keeps
// the group (docs/alertmanager.md). Its own module: the server's edge reads it before Next.js loads.

/** The largest delivery accepted whole, in bytes. */
export const ALERTMANAGER_BODY_LIMIT = 64 * 1024 * 1024;
/** The most alerts in one delivery. */
export const ALERTMANAGER_ALERT_LIMIT = 100_000;

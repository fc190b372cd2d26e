// An incident is fingerprinted by (cluster, signal, subject): the live signal id or the alert's signal or
// alertname, and what it is about. U+001F cannot appear in labels a person types, so the join is unambiguous.

const SEPARATOR = "\u001f";

export interface FingerprintParts {
  cluster: string;
  signal: string;
  subject: string;
}

export function fingerprintOf({ cluster, signal, subject }: FingerprintParts): string {
  return [cluster, signal, subject].join(SEPARATOR);
}

/** For people: "prod / kms.plugin.unhealthy / master-1/2". */
export function describeFingerprint({ cluster, signal, subject }: FingerprintParts): string {
  return `${cluster} / ${signal} / ${subject}`;
}

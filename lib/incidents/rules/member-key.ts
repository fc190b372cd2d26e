// Faultline's member key: what an incident holds is keyed by (cluster, signal, subject), the live signal id or the
// alert's signal or alertname, and what it is about (the DB column is still named "fingerprint"). Not Alertmanager's
// alert fingerprint (`alertFingerprint`). U+001F cannot appear in labels a person types, so the join is unambiguous.

const SEPARATOR = "\u001f";

export interface MemberKeyParts {
  cluster: string;
  signal: string;
  subject: string;
}

export function memberKeyOf({ cluster, signal, subject }: MemberKeyParts): string {
  return [cluster, signal, subject].join(SEPARATOR);
}

/** For people: "prod / kms.plugin.unhealthy / master-1/2". */
export function describeMemberKey({ cluster, signal, subject }: MemberKeyParts): string {
  return `${cluster} / ${signal} / ${subject}`;
}

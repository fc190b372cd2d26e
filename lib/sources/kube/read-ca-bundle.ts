import { X509Certificate } from "node:crypto";

// A webhook's caBundle: base64 of one or more PEM certificates. When the CA expires the API server
// can no longer call the webhook, so the earliest notAfter is what an operator needs to see.

export interface CaBundle {
  present: boolean;
  certificates: number;
  /** Earliest notAfter across the bundle's certificates, ISO 8601. */
  notAfter?: string;
  problem?: string;
}

const PEM_BLOCK = /-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export function readCaBundle(caBundle: unknown): CaBundle {
  if (caBundle === undefined || caBundle === null || caBundle === "") return { present: false, certificates: 0 };
  if (typeof caBundle !== "string") return { present: false, certificates: 0, problem: "caBundle is not a string" };
  const compact = caBundle.replace(/\s+/g, "");
  if (!BASE64.test(compact) || compact.length % 4 !== 0) {
    return { present: true, certificates: 0, problem: "caBundle is not valid base64" };
  }
  const pem = Buffer.from(compact, "base64").toString("utf8");
  const blocks = pem.match(PEM_BLOCK) ?? [];
  if (blocks.length === 0) return { present: true, certificates: 0, problem: "caBundle holds no PEM CERTIFICATE block" };
  const problems: string[] = [];
  let earliest: Date | undefined;
  for (const [i, block] of blocks.entries()) {
    try {
      const notAfter = new Date(new X509Certificate(block).validTo);
      if (Number.isNaN(notAfter.getTime())) problems.push(`certificate ${i + 1} has an unreadable notAfter`);
      else if (!earliest || notAfter < earliest) earliest = notAfter;
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      problems.push(`certificate ${i + 1} of ${blocks.length} is not a valid X.509 certificate${typeof code === "string" ? ` (${code})` : ""}`);
    }
  }
  return {
    present: true,
    certificates: blocks.length,
    ...(earliest ? { notAfter: earliest.toISOString() } : {}),
    ...(problems.length > 0 ? { problem: problems.join("; ") } : {}),
  };
}

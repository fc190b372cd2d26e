// Secrets hidden from text Faultline did not write: log lines, a journal, output an on-call pastes. These texts are
// shown on the incident page and stored with the incident, and the whole point of the protected stack is that a
// secret value is never shown, so anything shaped like a credential is replaced before the text is kept.
// What is hidden: OpenBao and Vault tokens (hvs., hvb., hvr., and the older s./b./r. forms), JSON Web Tokens,
// Authorization header values, the value after a credential's name (password=, secret_id:, X-Vault-Token: …),
// PEM private keys, and long base64 runs (a Secret's data, a wrapped key). Error words stay: they are the evidence.

export const HIDDEN = "[hidden]";

const RULES: { pattern: RegExp; replace: (match: string, ...groups: string[]) => string }[] = [
  { pattern: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g, replace: () => `-----BEGIN PRIVATE KEY----- ${HIDDEN}` },
  { pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, replace: () => HIDDEN },
  { pattern: /\b(hv[sbr]|[sbr])\.[A-Za-z0-9_-]{20,}/g, replace: () => HIDDEN },
  { pattern: /\b(Bearer|Basic|Negotiate)\s+[A-Za-z0-9._~+/=-]{8,}/gi, replace: (_m, scheme) => `${scheme} ${HIDDEN}` },
  {
    // A credential's name, then its value: the value is hidden when it looks like one (long, or with a digit), so
    // "failed to renew token: permission denied" keeps its words.
    pattern:
      /\b((?:x-(?:vault|openbao)-token|client[_-]?secret|secret[_-]?id|api[_-]?key|access[_-]?key|private[_-]?key|password|passwd|pwd|token|secret)["']?\s*[:=]\s*["']?)([^\s"',;}&]{8,})/gi,
    replace: (match, name: string, value: string) => (value.length >= 16 || /\d/.test(value) ? `${name}${HIDDEN}` : match),
  },
  // A Secret's data, a wrapped data key, a certificate body: a long unbroken base64 run.
  { pattern: /[A-Za-z0-9+/]{40,}={0,2}/g, replace: () => HIDDEN },
];

/** The text with every secret-shaped value replaced by [hidden], and how many were. */
export function hideSecrets(text: string): { text: string; hidden: number } {
  let hidden = 0;
  let out = text;
  for (const rule of RULES) {
    out = out.replace(rule.pattern, (...args: string[]) => {
      const replaced = rule.replace(...(args as [string, ...string[]]));
      if (replaced !== args[0]) hidden++;
      return replaced;
    });
  }
  return { text: out, hidden };
}

// A request path whose percent-encoding is broken (%zz, a cut-off %E0%A4, bytes that are not UTF-8 such as
// %ff) is refused here: Next.js throws on it while matching a dynamic segment, which was a 500. So is a
// dot segment, which browsers never send.

/** Why the path part of a request target is not valid percent-encoded UTF-8, or null when it is. */
export function percentEncodingProblem(target: string): string | null {
  const end = target.search(/[?#]/);
  const path = end === -1 ? target : target.slice(0, end);
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(path);
  if (bad) return `malformed percent-encoding in the path at character ${bad.index + 1}: "%" must be followed by two hex digits`;
  try {
    decodeURIComponent(path);
  } catch {
    return "the path's percent-encoded bytes are not UTF-8 text";
  }
  // Next.js resolves "." and ".." itself, so the route it serves would not be the one the edge checked.
  if (/(^|\/)(\.|%2e){1,2}(\/|$)/i.test(path)) return 'the path has a "." or ".." segment';
  return null;
}

// Reporter details are free text from a plugin; one runaway message must not flood a cell or a
// rollup line, and a cut must not leave half a surrogate pair behind.

const WHITESPACE = /\s/;

export interface ClippedText {
  text: string;
  clipped: boolean;
}

export function clipText(text: string, max: number): ClippedText {
  if (text.length <= max) return { text, clipped: false };
  const end = isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max;
  return { text: text.slice(0, end), clipped: true };
}

/** One line for a reason or signal detail: whitespace runs become one space, long text ends in an ellipsis. */
export function clipLine(text: string, max: number): string {
  // Stops as soon as the line is full, so a megabyte of input costs no more than a short one.
  let line = "";
  let space = false;
  for (let i = 0; i < text.length && line.length <= max; i++) {
    const char = text[i];
    if (WHITESPACE.test(char)) {
      space = line.length > 0;
      continue;
    }
    if (space) line += " ";
    space = false;
    line += char;
  }
  const cut = clipText(line, max);
  return cut.clipped ? `${cut.text}…` : cut.text;
}

/**
 * clipLine that keeps both ends of a long line: an error chain names its cause last ("…: tls: failed to verify
 * certificate: x509: certificate signed by unknown authority"), so the cut falls in the middle.
 */
export function clipLineKeepingEnd(text: string, max: number): string {
  const head = clipLine(text, max);
  if (!head.endsWith("…") || max < 20) return head;
  const tailLength = Math.floor(max * 0.6);
  // Only the last few thousand characters are read, whatever the input's size.
  const window = text
    .slice(-tailLength * 4)
    .replace(/\s+/g, " ")
    .trimEnd();
  let tail = window.slice(-tailLength);
  if (isLowSurrogate(tail.charCodeAt(0))) tail = tail.slice(1);
  const start = clipLine(text, max - tailLength - 3);
  return `${start.endsWith("…") ? start.slice(0, -1) : start} … ${tail.trimStart()}`;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

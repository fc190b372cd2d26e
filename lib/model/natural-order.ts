// Node names and keyIDs carry numbers ("master-10", keyID "12"); plain string order would put
// master-10 before master-2, so chunks of digits are compared by value.

const CHUNKS = /\d+|\D+/g;

export function compareNatural(a: string, b: string): number {
  const left = a.match(CHUNKS) ?? [];
  const right = b.match(CHUNKS) ?? [];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const x = left[i];
    const y = right[i];
    if (x === y) continue;
    if (isDigits(x) && isDigits(y)) {
      const byValue = compareDigits(x, y);
      if (byValue !== 0) return byValue;
    }
    return compareCodeUnits(x, y);
  }
  return left.length - right.length || compareCodeUnits(a, b);
}

function isDigits(chunk: string): boolean {
  return chunk.charCodeAt(0) >= 48 && chunk.charCodeAt(0) <= 57;
}

// By length after leading zeros, then digit by digit: exact for numbers of any size, no BigInt needed.
function compareDigits(x: string, y: string): number {
  const p = x.replace(/^0+(?=\d)/, "");
  const q = y.replace(/^0+(?=\d)/, "");
  return p.length - q.length || compareCodeUnits(p, q);
}

function compareCodeUnits(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}

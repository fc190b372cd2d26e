import { formatConfidence } from "@/lib/diagnosis/confidence";

/** How sure the diagnosis is, in words people read at 3 a.m.; the percentage is beside it. */
export function sureness(confidence: number, suspects: number): { word: string; tone: "red" | "orange" | "grey"; share: string } {
  // Alone, a suspect holds all of the evidence whatever its strength: "the only match" says that, ">99%" would not.
  if (suspects === 1) return { word: formatConfidence(confidence, 1), tone: "orange", share: "no other failure mode fits" };
  const share = formatConfidence(confidence);
  if (confidence >= 0.9) return { word: "very likely", tone: "red", share };
  if (confidence >= 0.6) return { word: "likely", tone: "orange", share };
  if (confidence >= 0.05) return { word: "possible", tone: "grey", share };
  return { word: "unlikely", tone: "grey", share };
}

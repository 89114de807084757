// Character helpers shared by the mention ranking (mention-index.ts and its layers) and its fuzzy
// scoring (fuzzy-score.ts): word starts, and the character classes and bigram buckets that let a
// keystroke rule entries out from precomputed masks without reading their strings.

export const SEPARATORS = "/_.-: ";
// Unicode-aware case tests (Ü is a hump too); they run when the index is built, not per keystroke.
export const isUpper = (c: string) => c !== c.toLowerCase();
export const isLowerOrDigit = (c: string) => c !== c.toUpperCase() || (c >= "0" && c <= "9");

/**
 * Lower case, one code unit for one, so that a position in the text is the same position in its
 * lower case (`İ` alone lower-cases to two units; such a character is kept as it is).
 */
export function lowerKeepingLength(text: string): string {
  const lower = text.toLowerCase();
  if (lower.length === text.length) return lower;
  let kept = "";
  for (const c of text) {
    const l = c.toLowerCase();
    kept += l.length === c.length ? l : c;
  }
  return kept;
}

/** A word starts at name position k (k > 0) after a separator or at a camelCase hump. */
export function wordStartAt(original: string, index: number): boolean {
  const prev = original[index - 1]!;
  const cur = original[index]!;
  return SEPARATORS.includes(prev) || (isLowerOrDigit(prev) && isUpper(cur));
}

/**
 * Characters fall into 32 classes, one bit each: a to z exactly, the separators `/ _ . -` exactly,
 * and two shared classes (digits, everything else). A mask says which classes a string contains.
 */
export const EXACT_CLASSES = 30;
export function charClass(code: number): number {
  if (code >= 97 && code <= 122) return code - 97;
  if (code === 47) return 26; // "/"
  if (code === 95) return 27; // "_"
  if (code === 46) return 28; // "."
  if (code === 45) return 29; // "-"
  if (code >= 48 && code <= 57) return 30;
  return 31;
}

// Masks are kept as signed 32-bit values: `&` yields a signed result, so comparing `(a & m) === m`
// only works when m is signed too (bit 31, the class of "other" characters, would break it).
export function classMask(lower: string, from = 0): number {
  let mask = 0;
  for (let k = from; k < lower.length; k++) mask |= 1 << charClass(lower.charCodeAt(k));
  return mask | 0;
}

/** The classes that occur twice or more in lower[from..). */
export function twiceClassMask(lower: string, from = 0): number {
  let once = 0;
  let twice = 0;
  for (let k = from; k < lower.length; k++) {
    const bit = 1 << charClass(lower.charCodeAt(k));
    twice |= once & bit;
    once |= bit;
  }
  return twice | 0;
}

/** Adjacent pairs hashed into 64 buckets (two words): a name without one of q's pairs cannot contain q. */
export function bigramBucket(a: number, b: number): number {
  return (charClass(a) * 37 + charClass(b)) & 63;
}

export function bigramMask(lower: string, from: number): [number, number] {
  let low = 0;
  let high = 0;
  for (let k = from + 1; k < lower.length; k++) {
    const bucket = bigramBucket(lower.charCodeAt(k - 1), lower.charCodeAt(k));
    if (bucket < 32) low |= 1 << bucket;
    else high |= 1 << (bucket - 32);
  }
  return [low | 0, high | 0];
}

/**
 * The deepest nesting of arrays and objects a request body may have. Every real body is a few
 * levels deep (a snapshot about six); the bound exists because canonical JSON (idempotency),
 * validation and error messages walk a body recursively, and 10,000 levels would overflow the stack.
 */
export const MAX_JSON_DEPTH = 64

/**
 * True when `text` nests arrays and objects deeper than `max`. A linear scan without recursion,
 * run before `JSON.parse`, so a too-deep body never becomes a value anything could recurse into.
 * Brackets inside strings do not count; an invalid document is left to `JSON.parse` to refuse.
 */
export function nestsDeeperThan(text: string, max: number): boolean {
  // Deeper than `max` takes more than `max` opening brackets: most texts have a few, found by two
  // indexOf scans (native, many characters a step) rather than the walk below, a character a step.
  if (countUpTo(text, '{', max + 1) + countUpTo(text, '[', max + 1) <= max) return false
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i)
    if (inString) {
      if (char === 0x5c) i++ // backslash: skip the escaped character
      else if (char === 0x22) inString = false
    } else if (char === 0x22) inString = true
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true
    } else if (char === 0x5d || char === 0x7d) depth--
  }
  return false
}

/** How often `char` occurs in `text`, counted no further than `limit`. */
function countUpTo(text: string, char: string, limit: number): number {
  let count = 0
  for (let at = text.indexOf(char); at !== -1 && count < limit; at = text.indexOf(char, at + 1)) count++
  return count
}

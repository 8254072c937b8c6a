import { formatParam } from '../errors.js'

/** The data file cannot be used; the message names the file and, for damage, the position. */
export class StoreLoadError extends Error {
  override name = 'StoreLoadError'
}

/** A line that does not fit: the refusal names the file, the line and its byte offset. */
export function damagedLine(file: string, line: { number: number; offset: number }, problem: string): StoreLoadError {
  return new StoreLoadError(
    `Data file ${file} is damaged at line ${line.number} (byte offset ${line.offset}): ${problem}. Nothing was changed; repair or remove that line (or restore a backup), or pass another --data-file.`,
  )
}

/** What was wrong with a line: the first schema issue with its path, or the JSON parser's words. */
export function describeProblem(error: unknown): string {
  // Told apart by shape rather than by class, so that a module without zod (the postings loader's thread) can use it.
  const issues = (error as { issues?: unknown } | null)?.issues
  if (Array.isArray(issues) && issues.length > 0) {
    const issue = issues[0] as { path: PropertyKey[]; message: string }
    return `${issue.path.length > 0 ? `${formatParam(issue.path)}: ` : ''}${issue.message}`
  }
  return error instanceof SyntaxError ? `not valid JSON (${error.message})` : (error as Error).message
}

import { readFileSync } from 'node:fs'
import type { StepResult } from './step-result.js'
import { UsageError, writeNamedFile } from './usage.js'

/**
 * The baseline of accepted differences (CONTRACT.md section 22): a JSON list of difference keys, one
 * a line, sorted, so that a change to it reads well in a diff. A difference whose key is not in it is
 * `new` (exit 1); an accepted key not seen any more is `fixed` (no failure) when its operation ran in
 * this run: a key of a step skipped, or of a pack not run, is neither seen nor fixed.
 */

export interface Verdict {
  new: string[]
  accepted: string[]
  fixed: string[]
}

export function readAcceptFile(file: string): string[] {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--accept ${file}: cannot read it (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); --write-accept ${file} writes one`)
  }
  let keys: unknown
  try {
    keys = JSON.parse(text)
  } catch {
    throw new UsageError(`--accept ${file} is not JSON: it is a JSON list of difference keys, as --write-accept writes it`)
  }
  if (!Array.isArray(keys) || keys.some((key) => typeof key !== 'string')) throw new UsageError(`--accept ${file} is not a JSON list of strings (difference keys, as --write-accept writes them)`)
  return keys as string[]
}

/** One key a line, sorted, with a final newline. */
export const formatAcceptFile = (keys: Iterable<string>): string => `${JSON.stringify([...new Set(keys)].sort(), null, 2)}\n`

export const writeAcceptFile = (file: string, keys: Iterable<string>): void => writeNamedFile('--write-accept', file, formatAcceptFile(keys))

/** `POST /v1/payments $.data.network missing` → `POST /v1/payments`. */
export const operationOfKey = (key: string): string => key.split(' ').slice(0, 2).join(' ')

export function seenKeys(results: readonly StepResult[]): string[] {
  return [...new Set(results.flatMap((step) => step.differences.map((difference) => difference.key)))].sort()
}

export function judge(results: readonly StepResult[], accepted: readonly string[]): Verdict {
  const seen = seenKeys(results)
  const acceptedSet = new Set(accepted)
  const ran = new Set(results.filter((step) => step.skipped === null).map((step) => step.operation))
  return {
    new: seen.filter((key) => !acceptedSet.has(key)),
    accepted: seen.filter((key) => acceptedSet.has(key)),
    fixed: [...acceptedSet].filter((key) => !seen.includes(key) && ran.has(operationOfKey(key))).sort(),
  }
}

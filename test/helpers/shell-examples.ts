import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

/**
 * Shell examples of the docs pages, run as printed: their `sh` blocks go to bash (with curl), and
 * the answers their comments show are checked against what the commands printed.
 */

/** The printed address of `npm start`, replaced by the test sandbox's own. */
export const PRINTED_ORIGINS = ['http://127.0.0.1:4400', 'localhost:4400'] as const

/** The `sh` blocks of a page, in order. */
export const shellBlocks = (page: string): string[] => [...page.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, body]) => body!)

/** Runs a script with bash (errors stop it), against `origin` (`http://127.0.0.1:<port>`) instead of the printed one. */
export async function runShell(script: string, origin: string, cwd: string): Promise<string> {
  const host = origin.replace(/^http:\/\//, '')
  const local = script.replaceAll(PRINTED_ORIGINS[0], origin).replaceAll(PRINTED_ORIGINS[1], host)
  const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', local], { cwd, timeout: 60_000 })
  return stdout
}

/**
 * A comment shows an answer when it starts with what an answer starts with: JSON, a JSON fragment
 * or a response header line. Lines that go on with `#  ` continue it; anything after `←` is a note.
 * Other comments are prose.
 */
export function shownAnswers(text: string): string[] {
  const answers: string[] = []
  let current: string | undefined
  for (const line of text.split('\n')) {
    const comment = /(?:^|\s)# (.*)$/.exec(line)?.[1]
    if (current !== undefined && /^# {2}/.test(line.trimStart())) {
      current += ' ' + comment!.trim()
      continue
    }
    if (current !== undefined) answers.push(current)
    current = comment !== undefined && /^(\{|"|HTTP\/|[A-Z][A-Za-z-]+: )/.test(comment) ? comment.split('←')[0] : undefined
  }
  if (current !== undefined) answers.push(current)
  return answers
}

/** `…` stands for anything; whitespace is ignored, since answers are compact and comments wrap. */
const squeeze = (text: string) => text.replace(/\s+/g, '')
const patternOf = (answer: string) => squeeze(answer).split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?')

/** The shown answers that the output does not hold, in order: each must come after the one before. */
export function missingAnswers(output: string, answers: string[]): string[] {
  const squeezed = squeeze(output)
  let from = 0
  const missing: string[] = []
  for (const answer of answers) {
    const match = new RegExp(patternOf(answer)).exec(squeezed.slice(from))
    if (match) from += match.index + match[0].length
    else missing.push(answer)
  }
  return missing
}

import { ApiCallError } from '../../client/api-request.js'
import { SandboxControlError } from '../../client/control-client.js'
import { EVENT_TYPES } from '../../model/events.js'
import { apiMessage } from './event-cursor.js'
import { TerminalError } from './target.js'
import { RECIPES } from './trigger/recipes.js'
import { a } from './trigger/run-trigger.js'

/** What the command line loads when a terminal command runs (`src/cli/terminal-commands.ts`). */

export { listen, printSecret } from './listen.js'
export { tail } from './tail.js'
export { connect, resolveTarget, TerminalError } from './target.js'
export { runTrigger } from './trigger/run-trigger.js'

/** The one line a failure is told in, or undefined for an error that is not the user's to fix (a bug: it is thrown on). */
export function describeFailure(error: unknown): string | undefined {
  if (error instanceof ApiCallError) return `${error.message} (${error.code}${error.param ? `, ${error.param}` : ''})`
  if (error instanceof SandboxControlError) return `${apiMessage(error)} (${error.code}${error.param ? `, ${error.param}` : ''})`
  if (error instanceof TerminalError) return error.message
  return undefined
}

/** `trigger --list`: every event type, what it creates and how it gets there, and what `--on` takes. */
export function listRecipes(json: boolean, print: (line: string) => void): void {
  const rows = EVENT_TYPES.map((type) => ({ type, creates: RECIPES[type].resource, how: RECIPES[type].describe, on: RECIPES[type].onStates ?? [] }))
  if (json) return print(JSON.stringify(rows))
  const width = Math.max(...EVENT_TYPES.map((type) => type.length))
  for (const row of rows) print(`${row.type.padEnd(width)}  ${row.creates.padEnd(10)}  ${row.how}${row.on.length > 0 ? `; --on: ${a(row.creates)} that is ${row.on.join(' or ')}` : ''}`)
}

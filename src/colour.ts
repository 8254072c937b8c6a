/**
 * Colour on a terminal: whether a stream gets it, and the few ANSI colours the request log and the
 * terminal commands use. None when the stream is not a terminal (piped, a file), under `NO_COLOR`
 * (https://no-color.org) or `TERM=dumb`; `FORCE_COLOR` asks for it anyway (or, as `0` or `false`,
 * never), as Node itself reads it.
 */

const CODES = { red: 31, green: 32, yellow: 33, cyan: 36, bold: 1, dim: 2 } as const

export type Colour = keyof typeof CODES
export type Paint = (colour: Colour, text: string) => string

const painted: Paint = (colour, text) => `\x1b[${CODES[colour]}m${text}\x1b[0m`
const plain: Paint = (_colour, text) => text

/** The paint for a stream that gets colour, or the one that leaves text as it is. */
export const paintFor = (colour: boolean): Paint => (colour ? painted : plain)

/** Whether text for `stream` gets colour, given the environment (passed in: only the command line reads it). */
export function wantsColour(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): boolean {
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false'
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false
  return stream.isTTY === true && env.TERM !== 'dumb'
}

/** An HTTP status by its class: 2xx green, 3xx cyan, 4xx yellow, 5xx red. */
export const statusColour = (status: number): Colour => (status >= 500 ? 'red' : status >= 400 ? 'yellow' : status >= 300 ? 'cyan' : 'green')

/**
 * Colours for a person at a terminal: on when the output is a terminal and `NO_COLOR` is not set
 * (https://no-color.org), plain text otherwise (piped, redirected, CI logs).
 */

export interface Paint {
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
  dim(text: string): string
  bold(text: string): string
}

const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`

const COLOURS: Paint = { red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39), dim: wrap(2, 22), bold: wrap(1, 22) }
const PLAIN: Paint = { red: String, green: String, yellow: String, dim: String, bold: String }

export function paintFor(stream: { isTTY?: boolean }, env: Record<string, string | undefined>): Paint {
  const noColor = env.NO_COLOR !== undefined && env.NO_COLOR !== ''
  return stream.isTTY === true && !noColor ? COLOURS : PLAIN
}

export const plain = PLAIN

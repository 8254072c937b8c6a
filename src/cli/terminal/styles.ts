import { statusColour, type Colour, type Paint } from '../../colour.js'
import { EVENT_TYPES } from '../../model/events.js'

/** How the terminal commands colour what they print, so that failures stand out. */

const ENDINGS: Record<string, Colour> = {
  failed: 'red', partially_failed: 'red', rejected: 'red',
  cancelled: 'yellow', expired: 'yellow', refunded: 'yellow',
  succeeded: 'green', completed: 'green', step_completed: 'green', filled: 'green',
}

/** An event type, padded to `width` and coloured by how its object ended: failures red, the good ends green. */
export function paintEventType(paint: Paint, type: string, width = 0): string {
  const colour = ENDINGS[type.slice(type.indexOf('.') + 1)]
  const padded = type.padEnd(width)
  return colour === undefined ? padded : paint(colour, type) + padded.slice(type.length)
}

/** The width of the longest event type: a column of types stays aligned. */
export const EVENT_TYPE_WIDTH = Math.max(...EVENT_TYPES.map((type) => type.length))

/** `[200]`, `[404]`, `[ERR]`: an answer's status by its class, no answer in red. */
export const paintAnswer = (paint: Paint, status: number | 'ERR'): string => paint(status === 'ERR' ? 'red' : statusColour(status), `[${status}]`)

/** A status in a line (`201`), or `no answer` in red for a request that got none. */
export const paintStatus = (paint: Paint, status: number | null): string => (status === null ? paint('red', 'no answer') : paint(statusColour(status), String(status)))

import { paintFor, type Paint } from '../../colour.js'

/**
 * Where a terminal command's lines go: a function that writes one line to its stream, and the paint
 * that suits that stream (colour on a terminal; none when piped or under NO_COLOR). JSON is never
 * painted.
 */
export interface Printer {
  (line: string): void
  paint: Paint
}

/** A printer on any writable stream (`process.stdout`), coloured as `colour` says. */
export const printerTo = (stream: { write(text: string): unknown }, colour: boolean): Printer =>
  Object.assign((text: string) => void stream.write(`${text}\n`), { paint: paintFor(colour) })

/** A printer that drops every line (`trigger --json` prints only its report). */
export const silent: Printer = printerTo({ write: () => true }, false)

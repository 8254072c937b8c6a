/**
 * One line on stderr that says which step is running, rewritten in place: a pack against a hosted
 * sandbox paced at 8 requests a second takes a while. Only on a terminal (never in a pipe or a log),
 * and cleared before the results are printed.
 */

export interface ProgressStream {
  isTTY?: boolean
  columns?: number
  write(text: string): unknown
}

export interface Progress {
  step(index: number, total: number, name: string): void
  done(): void
}

const NONE: Progress = { step: () => {}, done: () => {} }

export function createProgress(stream: ProgressStream, label: string): Progress {
  if (stream.isTTY !== true) return NONE
  let shown = false
  return {
    step(index, total, name) {
      const text = `${label} [${index + 1}/${total}] ${name}`
      const width = (stream.columns ?? 80) - 1
      stream.write(`\r\u001b[K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`)
      shown = true
    },
    done() {
      if (shown) stream.write('\r\u001b[K')
      shown = false
    },
  }
}

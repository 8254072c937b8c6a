/** Where the sandbox writes what it has to say: the banner, warnings, errors and the request log. */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string, error?: unknown): void
}

/**
 * `json` may be a function, asked when the first line is written: the CLI's asks whether stderr is a
 * terminal, and process.stderr is made on first use, which a quiet start need not pay for.
 */
export function createLogger(options: { quiet: boolean; json: boolean | (() => boolean); write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`))
  let json: boolean | undefined
  const emit = (level: 'info' | 'warn' | 'error', message: string, error?: unknown) => {
    const stack = error instanceof Error ? (error.stack ?? error.message) : error === undefined ? undefined : String(error)
    json ??= typeof options.json === 'function' ? options.json() : options.json
    if (json) write(JSON.stringify({ level, message, ...(stack ? { error: stack } : {}) }))
    else write(stack ? `${message}\n${stack}` : message)
  }
  return {
    info: (message) => !options.quiet && emit('info', message),
    warn: (message) => emit('warn', message),
    error: (message, error) => emit('error', message, error),
  }
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} }

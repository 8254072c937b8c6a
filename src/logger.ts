/** Where the sandbox writes what it has to say: the banner, warnings, errors and the request log. */
export interface Logger {
  info(message: string): void
  warn(message: string): void
  error(message: string, error?: unknown): void
}

export function createLogger(options: { quiet: boolean; json: boolean; write?: (line: string) => void }): Logger {
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`))
  const emit = (level: 'info' | 'warn' | 'error', message: string, error?: unknown) => {
    const stack = error instanceof Error ? (error.stack ?? error.message) : error === undefined ? undefined : String(error)
    if (options.json) write(JSON.stringify({ level, message, ...(stack ? { error: stack } : {}) }))
    else write(stack ? `${message}\n${stack}` : message)
  }
  return {
    info: (message) => !options.quiet && emit('info', message),
    warn: (message) => emit('warn', message),
    error: (message, error) => emit('error', message, error),
  }
}

export const silentLogger: Logger = { info: () => {}, warn: () => {}, error: () => {} }

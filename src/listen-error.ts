import type { Config } from './config.js'

/**
 * Why the server could not listen, in words. A port in use names the setting that picks another:
 * `--port` for the CLI, the `port` option for the library.
 */
export function describeListenError(error: unknown, config: Config, portSetting: string): string {
  if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
    return `port ${config.port} on ${config.host} is already in use; pick another with ${portSetting} (0 picks a free one)`
  }
  return (error as Error).message
}

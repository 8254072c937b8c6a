import { seedOf, type Config } from '../config.js'
import { createRequestLog, resolveLogFormat } from '../http/middleware/request-log.js'
import { describeListenError } from '../listen-error.js'
import { createLogger } from '../logger.js'
import { readyLine } from './ready-line.js'
import { configuredWebhookSecret, createSandbox, type Sandbox } from '../sandbox.js'
import { addressesOf, type SandboxAddresses } from '../sandbox-addresses.js'
import { VERSION } from '../version.js'

/** How the CLI reports that it serves, apart from the settings. */
export interface ServeOptions {
  /** `--ready-json`: one JSON line on stdout once listening, instead of the banner. */
  readyJson: boolean
}

/**
 * What `wallet-sandbox` with no command does: serve until Ctrl-C or SIGTERM, after a banner on
 * stdout (or, with `--ready-json`, the ready line).
 */
export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const logger = createLogger({ quiet: config.quiet, json: () => config.logFormat === 'json' || (config.logFormat === 'auto' && !process.stderr.isTTY) })
  // Quiet, no request log: it would look at process.stdout, made on first use, for nothing.
  const requestLog = config.quiet ? undefined : createRequestLog({ format: config.logFormat, control: config.logControl, env: process.env })
  const sandbox = await createSandbox(config, { logger, requestLog })
  let address
  try {
    address = await sandbox.listen()
  } catch (error) {
    process.stderr.write(`wallet-sandbox: cannot listen: ${describeListenError(error, config, '--port')}\n`)
    await sandbox.close()
    process.exit(1)
  }
  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    logger.info(`wallet-sandbox: ${signal}, flushing and stopping`)
    await sandbox.close()
    process.exit(0)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
  // Only now: whoever waits for the banner may send SIGTERM at once, and must get a clean stop.
  const addresses = addressesOf(sandbox, address)
  if (options.readyJson) process.stdout.write(`${JSON.stringify(readyLine(addresses))}\n`)
  else printBanner(sandbox, addresses, address.url)
}

/**
 * The start-up banner on stdout: URLs, the default key and the modes. As one JSON object when the
 * request log is JSON, so that a log collector reads every line of the output.
 */
function printBanner(sandbox: Sandbox, addresses: SandboxAddresses, bound: string): void {
  const { config } = sandbox
  if (config.quiet) return
  const base = addresses.baseUrl
  const modes = [
    `auth=${config.auth}`, `envelope=${config.envelope}`, `settle=${config.settle}`, `clock=${config.clock}`, `seed=${seedOf(config)}`,
    `rate-limit=${config.rateLimit || 'off'}`,
    ...(config.lenient ? ['lenient'] : []),
    ...(config.dataFile ? [`data-file=${config.dataFile}`, `durability=${config.durability}`] : []),
    ...(config.controlToken ? ['control-token=required'] : []),
    // Every key must sign (--signing-secret): a client that does not would otherwise only learn it from a 401.
    ...(config.signingSecret ? ['signatures=required'] : []),
    ...(config.latency ? [`latency=${[...new Set(config.latency)].join('-')}ms`] : []),
    ...(config.errorRate ? [`error-rate=${config.errorRate}`] : []),
  ].join(' ')
  const rows: Array<[label: string, field: string, value: string]> = [
    ['REST API', 'rest_url', addresses.url],
    ['stream', 'stream_url', addresses.streamUrl],
    ['control API', 'control_url', `${base}/_sandbox`],
    ['dashboard', 'dashboard_url', `${base}/_sandbox/ui`],
    ['API key', 'api_key', addresses.apiKey],
    ...(config.webhookUrl
      ? ([
          ['webhook URL', 'webhook_url', config.webhookUrl],
          ['signing key', 'webhook_secret', configuredWebhookSecret(config)],
        ] as Array<[string, string, string]>)
      : []),
    ['mode', 'mode', modes],
  ]
  const title = `wallet-sandbox ${VERSION} listening on ${bound}`
  if (resolveLogFormat(config.logFormat) === 'json') {
    process.stdout.write(`${JSON.stringify({ level: 'info', message: title, version: VERSION, url: base, ...Object.fromEntries(rows.map(([, field, value]) => [field, value])) })}\n`)
    return
  }
  process.stdout.write(`${[title, ...rows.map(([label, , value]) => `  ${label.padEnd(13)} ${value}`)].join('\n')}\n`)
}

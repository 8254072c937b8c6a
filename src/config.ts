import * as z from 'zod'
import { isStandardBase64 } from './key-material.js'
import { SHIPPED_FIXTURES_DIR } from './fixtures.js'
import { WebhookUrlSchema } from './schemas/webhook-url.js'

export const DEFAULT_FIXTURES_DIR = SHIPPED_FIXTURES_DIR
export const DEFAULT_CLOCK_START = '2026-01-01T00:00:00.000Z'

const booleanInput = z.union([
  z.boolean(),
  z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1'),
])
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) => z.coerce.number().int().min(min).max(max)

/** `50` or `20-80` (milliseconds). */
const latencyInput = z
  .string()
  .regex(/^\d+(-\d+)?$/, 'expected milliseconds such as 50 or a range such as 20-80')
  .transform((value): [number, number] => {
    const [min, max = min] = value.split('-').map(Number) as [number, number?]
    return [min, max]
  })
  .refine(([min, max]) => min <= max, 'the range must go from low to high')

const DELAY_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }
/** `250ms`, `5s`, `2m`, `1h` → ms; undefined for anything else. */
function parseDelay(text: string): number | undefined {
  const match = /^\s*(\d+)(ms|s|m|h)\s*$/.exec(text)
  return match ? Number(match[1]) * DELAY_UNITS[match[2]!]! : undefined
}

/** `5s,30s,2m,10m,1h` or `none`: delays between webhook attempts. */
const retryScheduleInput = z.string().transform((value, ctx): number[] => {
  if (value.trim() === 'none') return []
  const delays: number[] = []
  for (const part of value.split(',')) {
    const delay = parseDelay(part)
    if (delay === undefined) {
      ctx.addIssue({ code: 'custom', message: `'${part.trim()}' is not a delay such as 5s, 2m or 1h (or use 'none')` })
      return z.NEVER
    }
    delays.push(delay)
  }
  return delays
})

/**
 * A duration: `1500ms`, `30s`, `2m`, `1h`, or a bare number of seconds (CONTRACT.md section 19) → ms,
 * at least `minimumMs`. The one parser of every duration setting; `examples` names what fits that setting.
 */
const durationInput = (examples: string, minimumMs = 1) =>
  z.union([z.number(), z.string()]).transform((input, ctx): number => {
    const value = String(input)
    const ms = /^\s*\d+\s*$/.test(value) ? Number(value) * 1000 : parseDelay(value)
    if (ms === undefined || ms < minimumMs) {
      const floor = minimumMs >= 1000 ? ` (at least ${minimumMs / 1000 === 1 ? 'one second' : `${minimumMs / 1000} s`})` : ''
      ctx.addIssue({ code: 'custom', message: `'${value.trim()}' is not a duration such as ${examples}${floor}` })
      return z.NEVER
    }
    return ms
  })

/** The seed when none is given: the fixtures' documented ids and keys come from it. */
export const DEFAULT_SEED = 'wallet-sandbox'

export const ConfigSchema = z.object({
  port: integer(0, 65535).default(4400),
  host: z.string().min(1).default('127.0.0.1'),
  /**
   * Seeds every generated id, address, secret, name and price (`seedOf`: DEFAULT_SEED when not
   * given). Not given, under a real clock and without a data file, the ids of created objects also
   * differ from one start to the next (CONTRACT.md section 24).
   */
  seed: z.string().min(1).optional(),
  auth: z.enum(['open', 'strict']).default('open'),
  envelope: z.enum(['wrapped', 'bare']).default('wrapped'),
  lenient: booleanInput.default(false),
  /** Requests per second per API key; 0 turns the limiter off. */
  rateLimit: integer(0).default(10),
  dataFile: z.string().min(1).optional(),
  /** With a data file: strict fsyncs each change before answering; batched writes within 100 ms. */
  durability: z.enum(['strict', 'batched']).default('batched'),
  fixtures: z.string().min(1).default(DEFAULT_FIXTURES_DIR),
  whitelistEnforced: booleanInput.default(false),
  /** Bytes. */
  bodyLimit: integer(1).default(100 * 1024),
  settle: z.enum(['auto', 'instant', 'manual']).default('auto'),
  /** ms; when set, the confirmation delay of every network. */
  settleDelay: integer(0).optional(),
  clock: z.enum(['real', 'manual']).default('real'),
  clockStart: z.iso.datetime({ offset: true }).default(DEFAULT_CLOCK_START),
  controlToken: z.string().min(1).optional(),
  webhookUrl: WebhookUrlSchema.optional(),
  webhookSecret: z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, 'expected whsec_ followed by base64').optional(),
  /** Standard base64 (with padding): every key without signing material of its own must sign with HMAC-SHA256 under this secret, keyid `sandbox`. */
  signingSecret: z.string().refine(isStandardBase64, 'expected standard base64 with padding, such as the output of openssl rand -base64 32').optional(),
  /** Seconds a request signature stays acceptable after its `created` time (real time). */
  signatureMaxAge: durationInput('300, 90s, 5m or 1h', 1000).default(300_000),
  webhookRetries: retryScheduleInput.default([5_000, 30_000, 120_000, 600_000, 3_600_000]),
  /** ms before a webhook attempt counts as failed. */
  webhookTimeout: integer(1).default(10_000),
  /** Per account, the webhook deliveries the control API's log keeps; older finished ones are dropped (never a scheduled one). */
  deliveryLogLimit: integer(1).default(1000),
  /** Per account, the events `GET /_sandbox/events` keeps; older ones are dropped and counted. */
  eventLogLimit: integer(1).default(10_000),
  /** Per account, the `/v1` requests `GET /_sandbox/requests` keeps (and as many without an account); 0 keeps none. */
  requestLogLimit: integer(0).default(1000),
  /** ms a client may take to send a request's headers (slowloris); 408 and the connection closed after. */
  headersTimeout: integer(1).default(10_000),
  /** ms a client may take to send a whole request, body included. */
  requestTimeout: integer(1).default(60_000),
  /** ms a client may leave an answer unread (not one byte taken) before its connection is closed. */
  sendTimeout: integer(1).default(30_000),
  /** ms between price ticks on the stream. */
  priceInterval: integer(10).default(1000),
  /** Basis points of an order fill's quote value, charged in the quote currency. */
  tradingFeeBps: integer(0, 10_000).default(10),
  /** ms of sandbox time a quote holds. */
  quoteTtl: durationInput('30s, 2m or 45 (seconds)').default(30_000),
  logFormat: z.enum(['auto', 'pretty', 'json']).default('auto'),
  quiet: booleanInput.default(false),
  /** The request log shows control-API requests (`/_sandbox/…`) too; by default only the rest. */
  logControl: booleanInput.default(false),
  latency: latencyInput.optional(),
  errorRate: z.coerce.number().min(0).max(1).default(0),
})

export type Config = Readonly<z.output<typeof ConfigSchema>>
export type ConfigInput = z.input<typeof ConfigSchema>
export type ConfigKey = keyof z.output<typeof ConfigSchema>

/** kebab-case flag name of a config key: dataFile → data-file. */
export const flagName = (key: string) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
/** Environment variable of a config key: dataFile → WALLET_SANDBOX_DATA_FILE. */
export const envName = (key: string) => `WALLET_SANDBOX_${flagName(key).replace(/-/g, '_').toUpperCase()}`

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** How a configuration problem names its setting: the CLI by flag and variable, the library by option. */
export interface SettingNames {
  title: string
  name: (key: string) => string
}

export const CLI_SETTING_NAMES: SettingNames = {
  title: 'Invalid configuration',
  name: (key) => `--${flagName(key)} (${envName(key)})`,
}

/**
 * Merges defaults < `WALLET_SANDBOX_*` environment < flags and validates the result.
 * Throws ConfigError with one line per problem, naming the setting as `names` says (by default the
 * flag and its variable).
 */
export function loadConfig(sources: { flags?: Partial<Record<ConfigKey, unknown>>; env?: NodeJS.ProcessEnv } = {}, names = CLI_SETTING_NAMES): Config {
  const merged: Record<string, unknown> = {}
  for (const key of Object.keys(ConfigSchema.shape) as ConfigKey[]) {
    const fromEnv = sources.env?.[envName(key)]
    if (fromEnv !== undefined && fromEnv !== '') merged[key] = fromEnv
    const fromFlag = sources.flags?.[key]
    if (fromFlag !== undefined) merged[key] = fromFlag
  }
  // Parsed once per process: zod's compiled fast path (new Function) would cost more than it saves.
  const parsed = ConfigSchema.safeParse(merged, { jitless: true })
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${names.name(String(issue.path[0] ?? ''))}: ${issue.message}`)
    throw new ConfigError(`${names.title}:\n${lines.join('\n')}`)
  }
  return Object.freeze(parsed.data)
}

/** The seed everything generated comes from. */
export const seedOf = (config: Pick<Config, 'seed'>): string => config.seed ?? DEFAULT_SEED

/**
 * Whether created objects get ids that differ from one start to the next: a sandbox in memory,
 * on a real clock, whose seed nobody chose, is a developer's `npm start` beside a running app,
 * which must never mistake a new event for one it processed before the restart. A seed, a manual
 * clock or a data file asks for the same ids again.
 */
export const idsVaryAcrossStarts = (config: Pick<Config, 'seed' | 'clock' | 'dataFile'>): boolean =>
  config.seed === undefined && config.clock === 'real' && config.dataFile === undefined

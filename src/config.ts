import * as z from 'zod'
import { isStandardBase64 } from './key-material.js'
import { SHIPPED_FIXTURES_DIR } from './fixtures.js'
import { webhookUrlSchema } from './schemas/webhook-url.js'

export const DEFAULT_FIXTURES_DIR = SHIPPED_FIXTURES_DIR
export const DEFAULT_CLOCK_START = '2026-01-01T00:00:00.000Z'

/**
 * A setting's schema, made when first needed, and what parsing with it gives for the usual spellings
 * of a value (`quick`): the value, or NOT_QUICK for anything else, which the schema then parses and,
 * if it must, refuses in its own words. A start is given a port, a host or a switch, and reading them
 * needs no zod schema built (building one was about 3 % of a cold start, issue 33);
 * test/unit/config-settings.test.ts checks every setting's answer against the whole object's.
 */
interface Kind<S extends z.ZodType> {
  schema: () => S
  quick?: (given: unknown) => unknown
}
const NOT_QUICK = Symbol('not quick')
const kind = <S extends z.ZodType>(schema: () => S, quick: (given: unknown) => unknown): Kind<S> => ({ schema, quick })

const booleanInput = kind(
  () => z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1')]),
  (given) => (given === true || given === 'true' || given === '1' ? true : given === false || given === 'false' || given === '0' ? false : NOT_QUICK),
)
const integer = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  kind(
    () => z.coerce.number().int().min(min).max(max),
    (given) => {
      // Plain digits only (at most 15: always a safe integer); "1e3", " 5" or "0x10" go to the schema.
      const value = typeof given === 'number' ? given : typeof given === 'string' && /^\d{1,15}$/.test(given) ? Number(given) : NaN
      return Number.isInteger(value) && value >= min && value <= max ? value : NOT_QUICK
    },
  )
const text = () => kind(() => z.string().min(1), (given) => (typeof given === 'string' && given.length > 0 ? given : NOT_QUICK))
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => kind(() => z.enum(values), (given) => (values.includes(given as string) ? given : NOT_QUICK))

/** `50` or `20-80` (milliseconds). */
const latencyInput = () =>
  z
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
const retryScheduleInput = () =>
  z.string().transform((value, ctx): number[] => {
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

/**
 * A setting: its schema, made when first needed, and its default (none: the setting is optional).
 * A start reads the settings it was given (quickly, or with their own schemas) and takes the
 * defaults of the rest as they are (as zod's `.default()` gives them), so it builds at most the
 * schemas of the settings given in unusual spellings, not the forty of the whole object.
 */
interface Setting<S extends z.ZodType, D> extends Kind<S> {
  default: D
}
function setting<S extends z.ZodType>(read: Kind<S> | (() => S)): Setting<S, undefined>
function setting<S extends z.ZodType>(read: Kind<S> | (() => S), fallback: z.util.NoUndefined<z.output<S>>): Setting<S, z.output<S>>
function setting<S extends z.ZodType>(read: Kind<S> | (() => S), fallback?: z.output<S>): Setting<S, z.output<S> | undefined> {
  return { ...(typeof read === 'function' ? { schema: read } : read), default: fallback }
}

/** Every setting, in the order of the help and the docs: the one list of them (CONTRACT.md section 19). */
const SETTINGS = {
  port: setting(integer(0, 65535), 4400),
  host: setting(text(), '127.0.0.1'),
  /**
   * Seeds every generated id, address, secret, name and price (`seedOf`: DEFAULT_SEED when not
   * given). Not given, under a real clock and without a data file, the ids of created objects also
   * differ from one start to the next (CONTRACT.md section 24).
   */
  seed: setting(text()),
  auth: setting(oneOf(['open', 'strict']), 'open'),
  envelope: setting(oneOf(['wrapped', 'bare']), 'wrapped'),
  lenient: setting(booleanInput, false),
  /** Requests per second per API key; 0 turns the limiter off. */
  rateLimit: setting(integer(0), 10),
  dataFile: setting(text()),
  /** With a data file: strict fsyncs each change before answering; batched writes within 100 ms. */
  durability: setting(oneOf(['strict', 'batched']), 'batched'),
  fixtures: setting(text(), DEFAULT_FIXTURES_DIR),
  whitelistEnforced: setting(booleanInput, false),
  /** Bytes. */
  bodyLimit: setting(integer(1), 100 * 1024),
  settle: setting(oneOf(['auto', 'instant', 'manual']), 'auto'),
  /** ms; when set, the confirmation delay of every network. */
  settleDelay: setting(integer(0)),
  clock: setting(oneOf(['real', 'manual']), 'real'),
  clockStart: setting(() => z.iso.datetime({ offset: true }), DEFAULT_CLOCK_START),
  controlToken: setting(text()),
  webhookUrl: setting(webhookUrlSchema),
  webhookSecret: setting(() => z.string().regex(/^whsec_[A-Za-z0-9+/=]+$/, 'expected whsec_ followed by base64')),
  /** Standard base64 (with padding): every key without signing material of its own must sign with HMAC-SHA256 under this secret, keyid `sandbox`. */
  signingSecret: setting(() => z.string().refine(isStandardBase64, 'expected standard base64 with padding, such as the output of openssl rand -base64 32')),
  /** Seconds a request signature stays acceptable after its `created` time (real time). */
  signatureMaxAge: setting(() => durationInput('300, 90s, 5m or 1h', 1000), 300_000),
  webhookRetries: setting(retryScheduleInput, [5_000, 30_000, 120_000, 600_000, 3_600_000]),
  /** ms before a webhook attempt counts as failed. */
  webhookTimeout: setting(integer(1), 10_000),
  /** Per account, the webhook deliveries the control API's log keeps; older finished ones are dropped (never a scheduled one). */
  deliveryLogLimit: setting(integer(1), 1000),
  /** Per account, the events `GET /_sandbox/events` keeps; older ones are dropped and counted. */
  eventLogLimit: setting(integer(1), 10_000),
  /** Per account, the `/v1` requests `GET /_sandbox/requests` keeps (and as many without an account); 0 keeps none. */
  requestLogLimit: setting(integer(0), 1000),
  /** ms a client may take to send a request's headers (slowloris); 408 and the connection closed after. */
  headersTimeout: setting(integer(1), 10_000),
  /** ms a client may take to send a whole request, body included. */
  requestTimeout: setting(integer(1), 60_000),
  /** ms a client may leave an answer unread (not one byte taken) before its connection is closed. */
  sendTimeout: setting(integer(1), 30_000),
  /** ms between price ticks on the stream. */
  priceInterval: setting(integer(10), 1000),
  /** Basis points of an order fill's quote value, charged in the quote currency. */
  tradingFeeBps: setting(integer(0, 10_000), 10),
  /** ms of sandbox time a quote holds. */
  quoteTtl: setting(() => durationInput('30s, 2m or 45 (seconds)'), 30_000),
  logFormat: setting(oneOf(['auto', 'pretty', 'json']), 'auto'),
  quiet: setting(booleanInput, false),
  /** The request log shows control-API requests (`/_sandbox/…`) too; by default only the rest. */
  logControl: setting(booleanInput, false),
  latency: setting(latencyInput),
  errorRate: setting(() => z.coerce.number().min(0).max(1), 0),
}

type Settings = typeof SETTINGS
type ConfigShape = {
  [K in keyof Settings]: Settings[K] extends Setting<infer S, infer D> ? (undefined extends D ? z.ZodOptional<S> : z.ZodDefault<S>) : never
}

/** The names of the settings, without building their schemas. */
export const CONFIG_KEYS = Object.keys(SETTINGS) as Array<keyof Settings>
export const isConfigKey = (key: string): key is keyof Settings => Object.hasOwn(SETTINGS, key)

let wholeSchema: z.ZodObject<ConfigShape> | undefined
const fieldSchemas = new Map<string, z.ZodType>()
/** One setting's schema, with its default or as optional: the field of the whole object. */
function fieldSchema(key: keyof Settings): z.ZodType {
  let schema = fieldSchemas.get(key)
  if (!schema) {
    const { schema: make, default: fallback } = SETTINGS[key] as Setting<z.ZodType, unknown>
    schema = fallback === undefined ? make().optional() : make().default(fallback)
    fieldSchemas.set(key, schema)
  }
  return schema
}

/** The settings as one zod object (the help's defaults, the docs' checks), built on first use. */
export function configSchema(): z.ZodObject<ConfigShape> {
  return (wholeSchema ??= z.object(Object.fromEntries(CONFIG_KEYS.map((key) => [key, fieldSchema(key)])) as ConfigShape))
}

export type Config = Readonly<z.output<z.ZodObject<ConfigShape>>>
export type ConfigInput = z.input<z.ZodObject<ConfigShape>>
export type ConfigKey = keyof Settings

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
  const config: Record<string, unknown> = {}
  const problems: string[] = []
  for (const key of CONFIG_KEYS) {
    const fromEnv = sources.env?.[envName(key)]
    const fromFlag = sources.flags?.[key]
    const given = fromFlag !== undefined ? fromFlag : fromEnv !== undefined && fromEnv !== '' ? fromEnv : undefined
    if (given === undefined) {
      // What the object's `.default()` gives (a copy of a list); an optional setting stays absent.
      const fallback = SETTINGS[key].default as unknown
      if (fallback !== undefined) config[key] = Array.isArray(fallback) ? [...fallback] : fallback
      continue
    }
    const quick = (SETTINGS[key] as Setting<z.ZodType, unknown>).quick?.(given) ?? NOT_QUICK
    if (quick !== NOT_QUICK) {
      config[key] = quick
      continue
    }
    // Parsed once per process: zod's compiled fast path (new Function) would cost more than it saves.
    const parsed = fieldSchema(key).safeParse(given, { jitless: true })
    if (parsed.success) config[key] = parsed.data
    else for (const issue of parsed.error.issues) problems.push(`  ${names.name(key)}: ${issue.message}`)
  }
  if (problems.length > 0) throw new ConfigError(`${names.title}:\n${problems.join('\n')}`)
  return Object.freeze(config) as Config
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

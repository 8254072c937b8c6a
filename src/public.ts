import { ConfigError, loadConfig, type SettingNames } from './config.js'
import { createControlClient, type ControlClient, type EventMatch, type SandboxAccount, type SandboxEvent, type SandboxRequest, type SandboxRequestExpectation } from './client/control-client.js'
import { requestAssertions, type NoRequestExpectation, type RequestExpectationOptions } from './client/request-expectation.js'
import { sharedControl } from './client/shared-sandbox.js'
import { createRequestLog } from './http/middleware/request-log.js'
import { describeListenError } from './listen-error.js'
import { createLogger } from './logger.js'
import { createSandbox } from './sandbox.js'
import { addressesOf } from './sandbox-addresses.js'
import { toFlags, type SandboxOptions } from './sandbox-options.js'

/**
 * The library entry point: `import { startSandbox } from 'wallet-sandbox'` starts a sandbox inside
 * the calling process, for test suites (a vitest globalSetup, a jest globalSetup, a mocha root hook).
 */

/** The CLI's settings, camelCase, with the values they parse to. `WALLET_SANDBOX_*` variables are not read. */
export type StartSandboxOptions = SandboxOptions

export interface RunningSandbox {
  /** The REST base URL with `/v1`, what an SDK takes as its base URL: `http://127.0.0.1:53121/v1`. */
  url: string
  /** The address without `/v1`: `http://127.0.0.1:53121`. */
  baseUrl: string
  /** The WebSocket stream: `ws://127.0.0.1:53121/v1/stream`. */
  streamUrl: string
  /** The default account's secret key (`sk_test_sandbox_default_key` with the shipped fixtures). */
  apiKey: string
  /** A typed client of the control API (`/_sandbox`). */
  control: ControlClient
  /**
   * The first event `match` selects, already logged or still to come (`GET /_sandbox/events`), on
   * the default key's account unless `api_key` or `account_id` says otherwise. Default wait 10 s of
   * real time; a timeout's error says what it waited for and what the account had.
   */
  waitForEvent(match: EventMatch, options?: { timeoutMs?: number }): Promise<SandboxEvent>
  /**
   * Asserts what the code under test sent (`POST /_sandbox/requests/expect`), on the default key's
   * account unless `api_key` or `account_id` says otherwise: at least `count` (default 1) matching
   * requests, or exactly `count` with `exactly`, waiting up to `withinMs` of real time (default 0).
   * Answers the matched requests, newest first; otherwise throws a RequestExpectationError whose
   * message shows the expectation and the closest requests as `field: expected …, got …`.
   */
  expectRequest(expectation: SandboxRequestExpectation, options?: RequestExpectationOptions): Promise<SandboxRequest[]>
  /** Asserts that no matching request came, over `withinMs` of real time (the whole window is waited). */
  expectNoRequest(expectation: NoRequestExpectation, options?: RequestExpectationOptions): Promise<void>
  /**
   * A fresh seeded account with a key of its own, whose clock, snapshot and restore are its own:
   * what a test that shares the sandbox with others uses (CONTRACT.md section 24).
   */
  newAccount(): Promise<SandboxAccount>
  /** Stops serving, cancels timers and flushes the data file. Safe to call twice. */
  close(): Promise<void>
}

/** A sandbox started by someone else (`wallet-sandbox exec`), reached through its variables. */
export type AttachedSandbox = Omit<RunningSandbox, 'close'>

/** The library's errors name its options (`rateLimit`), never the CLI's flags (`--rate-limit`). */
const OPTION_NAMES: SettingNames = { title: 'Invalid startSandbox() options', name: (key) => key }

/**
 * Starts a sandbox on a free port (`port: 0` by default) and quiet (`quiet: true` by default; with
 * `quiet: false` it writes the request log to stdout). Other defaults are the CLI's.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const config = loadConfig({ flags: toFlags({ port: 0, quiet: true, ...options }, 'startSandbox') }, OPTION_NAMES)
  const logger = createLogger({ quiet: config.quiet, json: config.logFormat === 'json' })
  // Quiet (the default here), no request log: it would look at process.stdout, made on first use, for nothing.
  const requestLog = config.quiet ? undefined : createRequestLog({ format: config.logFormat, control: config.logControl })
  const sandbox = await createSandbox(config, { logger, requestLog })
  let address
  try {
    address = await sandbox.listen()
  } catch (error) {
    await sandbox.close()
    throw Object.assign(new Error(`startSandbox() cannot listen: ${describeListenError(error, config, 'the port option')}`, { cause: error }), {
      code: (error as NodeJS.ErrnoException).code,
    })
  }
  const { url, baseUrl, streamUrl, apiKey } = addressesOf(sandbox, address)
  let closing: Promise<void> | undefined
  const control = createControlClient({ baseUrl, controlToken: config.controlToken })
  return {
    url,
    baseUrl,
    streamUrl,
    apiKey,
    ...onDefaultKey(control, apiKey),
    close: () => (closing ??= sandbox.close()),
  }
}

/** The sandbox handle's calls that read or wait on an account: the default key's, unless `api_key` or `account_id` names another. */
function onDefaultKey(control: ControlClient, apiKey: string) {
  const ownKey = <T extends { api_key?: string; account_id?: string }>(match: T): T => (match.api_key === undefined && match.account_id === undefined ? { ...match, api_key: apiKey } : match)
  return {
    control,
    waitForEvent: (match: EventMatch, options?: { timeoutMs?: number }) => control.waitForEvent(ownKey(match), options),
    ...requestAssertions(control.expectRequest, ownKey<SandboxRequestExpectation>),
    newAccount: () => control.newAccount(),
  }
}

/**
 * The sandbox that `wallet-sandbox exec` (or whoever set `WALLET_SANDBOX_BASE_URL`) started, for a
 * suite that runs beside others on it. Its sandbox-wide advance, snapshot, restore and reset warn
 * once that they reach every test sharing the sandbox; `newAccount()` gives a test its own.
 */
export function attachSandbox(env: NodeJS.ProcessEnv = process.env): AttachedSandbox {
  const baseUrl = env.WALLET_SANDBOX_BASE_URL
  if (!baseUrl) throw new ConfigError('attachSandbox() needs WALLET_SANDBOX_BASE_URL (set by `wallet-sandbox exec -- …`); startSandbox() starts a sandbox of your own instead.')
  if (/\/v1\/?$/.test(baseUrl)) throw new ConfigError(`WALLET_SANDBOX_BASE_URL is the address without /v1 (got ${baseUrl}); WALLET_SANDBOX_URL is the one with it.`)
  const apiKey = env.WALLET_SANDBOX_API_KEY ?? 'sk_test_sandbox_default_key'
  const control = sharedControl(createControlClient({ baseUrl, controlToken: env.WALLET_SANDBOX_CONTROL_TOKEN }))
  const url = env.WALLET_SANDBOX_URL ?? `${baseUrl.replace(/\/+$/, '')}/v1`
  return {
    url,
    baseUrl,
    streamUrl: env.WALLET_SANDBOX_STREAM_URL ?? `${url.replace(/^http/, 'ws')}/stream`,
    apiKey,
    ...onDefaultKey(control, apiKey),
  }
}

export { createControlClient, EventWaitTimeoutError, SandboxControlError } from './client/control-client.js'
export { RequestExpectationError, type NoRequestExpectation, type RequestExpectationOptions } from './client/request-expectation.js'
export { createWebhookReceiver, type ReceivedDelivery, type WebhookReceiver, type WebhookReceiverOptions } from './client/webhook-receiver.js'
export type {
  AccountScope, EventFilter, EventMatch, SandboxAccount, SandboxEvent, SandboxEventPage,
  AccountPaymentFilter, AccountWhitelistFilter, ControlClient, ControlClientOptions, DeliveryFilter, FailPaymentInput, PageOptions, PostingFilter, RequestFilter, SandboxClock, SandboxCreatedKey,
  SandboxCreateKeyInput, SandboxDelivery, SandboxFault, SandboxFaultInput, SandboxHealth, SandboxMagicAddress, SandboxOutcomeRule, SandboxOutcomeRuleInput,
  SandboxPayment, SandboxPricePin, SandboxRequest, SandboxRequestDifference, SandboxRequestExpectation, SandboxRequestExpectationResult, SandboxResetResult, SandboxRestoreResult, SandboxSnapshot, SandboxWallet,
  SandboxBalance, SandboxLedgerTransaction, SandboxPayout, SandboxSettlement, SandboxSettlementFailureCode, SettlementFilter, SandboxWebhookEndpoint, SandboxWhitelistedAddress,
} from './client/control-client.js'
export { ConfigError }
export { VERSION } from './version.js'

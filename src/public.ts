import { ConfigError, loadConfig, type SettingNames } from './config.js'
import { createControlClient, type ControlClient, type EventMatch, type SandboxEvent, type SandboxRequest, type SandboxRequestExpectation } from './client/control-client.js'
import { assertRequests, type NoRequestExpectation, type RequestExpectationOptions } from './client/request-expectation.js'
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
  /** Stops serving, cancels timers and flushes the data file. Safe to call twice. */
  close(): Promise<void>
}

/** The library's errors name its options (`rateLimit`), never the CLI's flags (`--rate-limit`). */
const OPTION_NAMES: SettingNames = { title: 'Invalid startSandbox() options', name: (key) => key }

/**
 * Starts a sandbox on a free port (`port: 0` by default) and quiet (`quiet: true` by default; with
 * `quiet: false` it writes the request log to stdout). Other defaults are the CLI's.
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const config = loadConfig({ flags: toFlags({ port: 0, quiet: true, ...options }, 'startSandbox') }, OPTION_NAMES)
  const logger = createLogger({ quiet: config.quiet, json: config.logFormat === 'json' })
  const sandbox = await createSandbox(config, { logger, requestLog: createRequestLog({ format: config.logFormat }) })
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
  const ownKey = <T extends { api_key?: string; account_id?: string }>(match: T): T => (match.api_key === undefined && match.account_id === undefined ? { ...match, api_key: apiKey } : match)
  return {
    url,
    baseUrl,
    streamUrl,
    apiKey,
    control,
    waitForEvent: (match, options) => control.waitForEvent(ownKey(match), options),
    expectRequest: (expectation, options) => assertRequests(control.expectRequest, ownKey(expectation), options),
    expectNoRequest: async (expectation, options) => void (await assertRequests(control.expectRequest, { ...ownKey(expectation), count: 0, exactly: true }, options)),
    close: () => (closing ??= sandbox.close()),
  }
}

export { createControlClient, EventWaitTimeoutError, SandboxControlError } from './client/control-client.js'
export { RequestExpectationError, type NoRequestExpectation, type RequestExpectationOptions } from './client/request-expectation.js'
export { createWebhookReceiver, type ReceivedDelivery, type WebhookReceiver, type WebhookReceiverOptions } from './client/webhook-receiver.js'
export type {
  EventFilter, EventMatch, SandboxEvent, SandboxEventPage,
  AccountPaymentFilter, AccountWhitelistFilter, ControlClient, ControlClientOptions, DeliveryFilter, FailPaymentInput, PageOptions, PostingFilter, RequestFilter, SandboxClock, SandboxCreatedKey,
  SandboxCreateKeyInput, SandboxDelivery, SandboxFault, SandboxFaultInput, SandboxHealth, SandboxMagicAddress, SandboxOutcomeRule, SandboxOutcomeRuleInput,
  SandboxPayment, SandboxPricePin, SandboxRequest, SandboxRequestDifference, SandboxRequestExpectation, SandboxRequestExpectationResult, SandboxResetResult, SandboxRestoreResult, SandboxSnapshot, SandboxWallet,
  SandboxBalance, SandboxLedgerTransaction, SandboxPayout, SandboxSettlement, SandboxSettlementFailureCode, SettlementFilter, SandboxWebhookEndpoint, SandboxWhitelistedAddress,
} from './client/control-client.js'
export { ConfigError }
export { VERSION } from './version.js'

import { join } from 'node:path'
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'
import { createServer as createNetServer, type AddressInfo, type Server } from 'node:net'
import type { Express, RequestHandler } from 'express'
import { createClock, monotonicMs, wallClockMs, type Clock } from './clock.js'
import { idsVaryAcrossStarts, seedOf, type Config } from './config.js'
import { createFaultRules } from './control/fault-rules.js'
import { createSandboxControl, type SandboxControl } from './control/sandbox-control.js'
import { createAccountClocks } from './control/account-clocks.js'
import { ApiError } from './errors.js'
import { createBus, type Bus } from './events/bus.js'
import { createPublisher } from './events/publisher.js'
import { defaultConfiguredSecret } from './events/signing.js'
import { createWebhookEngine, type WebhookEngine } from './events/webhooks.js'
import { createEventLog, type EventLog } from './events/event-log.js'
import { loadFixtures, type Fixtures } from './fixtures.js'
import { createApp } from './http/app.js'
import { servePlainConnections, type PlainConnections } from './http/plain-connection.js'
import type { HttpServices } from './http/services.js'
import { answerClientErrors, guardUnreadAnswers, listenOn, serverOptions } from './http/server-guards.js'
import type { AppDeps } from './http/context.js'
import { createFaults } from './http/middleware/faults.js'
import { createIdempotency } from './http/middleware/idempotency.js'
import { createSignatureChecks } from './http/middleware/signature.js'
import { createIdempotencyRecords } from './ledger/idempotency-records.js'
import { createRateLimiter } from './http/middleware/rate-limit.js'
import { createRequestJournal } from './control/request-journal.js'
import type { AnyRoute } from './http/route.js'
import { lazyRoutes } from './http/lazy-routes.js'
import { ROUTE_GROUPS } from './api/route-table.js'
import { createAccounts, type Accounts } from './ledger/accounts.js'
import { configuredEndpointFor } from './ledger/webhook-endpoints.js'
import { createOutcomeRules } from './lifecycle/outcome-rules.js'
import { createOutcomeDecider } from './lifecycle/outcomes.js'
import { createScreening } from './lifecycle/screening.js'
import { createPaymentSettlement } from './lifecycle/payment-settlement.js'
import { createSettlementDecider } from './lifecycle/settlement-outcomes.js'
import { createSettlementSteps } from './lifecycle/settlement-steps.js'
import { createLogger, type Logger } from './logger.js'
import { randomHex } from './node-crypto.js'
import { createRng, createRngFamily } from './rng.js'
import { createServices, type Services } from './services.js'
import type { WebhookEndpointRecord } from './model/records.js'
import type { AccountState } from './store/account-state.js'
import { put } from './store/changes.js'
import { openStore, type Store } from './store/store.js'
import { priceFixtureOf } from './market/price-fixture.js'
import { createPriceModel, type PriceModel } from './market/prices.js'
import { createTradingPairs, type TradingPairs } from './market/pairs.js'
import { createPricePins } from './control/price-pins.js'
import { createOrderMatching } from './lifecycle/order-matching.js'
import { createStreamServer, type StreamOptions, type StreamServer } from './stream/ws.js'

export interface Sandbox {
  readonly config: Config
  /** The express app behind the listener (HEAD, OPTIONS, 405, 404, the dashboard), built on first use. */
  expressApp(): Promise<Express>
  readonly clock: Clock
  readonly store: Store
  readonly bus: Bus
  readonly accounts: Accounts
  readonly services: Services
  readonly fixtures: Fixtures
  readonly control: SandboxControl
  /** Webhook deliveries: the log, redelivery, and `idle()` for tests. */
  readonly webhooks: WebhookEngine
  /** Every account's recent events, as `GET /_sandbox/events` reads them. */
  readonly events: EventLog
  /** Every route object, loading the groups no request has loaded yet (src/api/route-table.ts). */
  loadRoutes(): Promise<readonly AnyRoute[]>
  /** The price feed (price pins included) behind the stream, `GET /v1/prices` and quotes. */
  readonly prices: PriceModel
  readonly pairs: TradingPairs
  /** The WebSocket stream at /v1/stream (its `stats()` show subscribers and slow readers). */
  readonly stream: StreamServer
  /** Starts serving; resolves with the address actually bound (port 0 picks a free one). */
  listen(): Promise<{ host: string; port: number; url: string }>
  /** Stops serving, cancels timers and flushes the data file. */
  close(): Promise<void>
}

export interface SandboxOptions {
  /** Middleware ahead of the routes, for every request (the test suite records every answer with it). */
  beforeRoutes?: RequestHandler[]
  logger?: Logger
  /** Called once per answered request (the CLI passes `createRequestLog`); skipped with `quiet`. */
  requestLog?: HttpServices['onResponse']
  /** Real time (ms since the epoch) for request signatures' `created`; tests move it without waiting. */
  realTime?: () => number
  /** The rate limiter's monotonic time in ms (default: real); tests inject it to check the window exactly. */
  rateLimitClock?: () => number
  /** Stream tuning (heartbeat, slow-reader limits); tests shorten it. */
  stream?: Partial<StreamOptions>
  /**
   * The sandbox's own HTTP/1.1 layer in front of node:http (src/http/plain-connection.ts), on
   * unless this is false: a test compares the bytes of both.
   */
  plainConnections?: boolean
}

/**
 * The compiled worker that reads a large snapshot's postings. From dist/sandbox.js and from the CLI
 * bundle (dist/cli.bundle.cjs) alike it is dist/store/postings-worker.js; from the TypeScript sources
 * (tests) there is none, and the store reads the postings on the main thread.
 */
const POSTINGS_WORKER = join(import.meta.dirname, 'store', 'postings-worker.js')

/** A gap between requests at least this long (ms) is a pause, in which background work runs freely. */
const REQUESTS_PAUSE_MS = 2

/** Builds the whole sandbox from a validated config. The only place where modules are wired. */
export async function createSandbox(config: Config, options: SandboxOptions = {}): Promise<Sandbox> {
  const logger = options.logger ?? createLogger({ quiet: config.quiet, json: config.logFormat === 'json' })
  const fixtures = loadFixtures(config.fixtures)
  // When the server last took a request: a compaction gives way while they come in one after another.
  let lastRequestAt = -Infinity
  const { store } = await openStore({
    dataFile: config.dataFile,
    durability: config.durability,
    onWriteError: (error) => logger.error(`Could not write ${config.dataFile}`, error),
    warn: (message) => logger.warn(message),
    postingsWorker: POSTINGS_WORKER,
    busy: () => monotonicMs() - lastRequestAt < REQUESTS_PAUSE_MS,
  })
  const clock = createClock({ mode: config.clock, start: Date.parse(config.clockStart), onTaskError: (error) => logger.error('A scheduled task failed', error) })
  const clocks = createAccountClocks({ store, clock })
  clocks.load()
  const seed = seedOf(config)
  // The fixtures come from the seed; what is created later, from a seed of this start when ids must not repeat across starts.
  const idSeed = idsVaryAcrossStarts(config) ? `${seed}/${randomHex(16)}` : seed
  const bus = createBus()
  const publisher = createPublisher(bus, clock)
  const configuredEndpoint = configuredEndpointHook(config, clock)
  const accounts = createAccounts({ store, clock, fixtures, seed, idSeed, configuredEndpoint })
  accounts.ensureDefault()
  // Accounts loaded from a data file were seeded before this run's --webhook-url.
  if (configuredEndpoint) {
    const endpoints = [...store.accounts.values()].flatMap((state) => {
      const endpoint = configuredEndpoint(state)
      return endpoint ? [put('webhook', state.account.id, endpoint.id, endpoint)] : []
    })
    if (endpoints.length > 0) store.apply(endpoints)
  }
  const webhooks = createWebhookEngine({ bus, clock, store, config, idSeed, logger })
  const events = createEventLog({ bus, limitPerAccount: config.eventLogLimit })
  // One price model for everything: pins (kept in the store) move the stream, GET /v1/prices and quotes alike.
  const pins = createPricePins({ store, clock })
  // Read, and the model and pairs made, on their first use; a `--fixtures` folder's prices.json at once (issue 33, round 10).
  const priceFixture = priceFixtureOf(fixtures.dir)
  const prices = createPriceModel(priceFixture, seed, pins.legs)
  const pairs = createTradingPairs(priceFixture)
  const screening = createScreening({ fixtures, store })
  const services = createServices({ config, store, clock, publisher, prices, pairs, decideSettlement: createSettlementDecider({ fixtures, screening }) })
  const rules = createOutcomeRules({ store, rngFor: createRngFamily(idSeed, 'outcome-rules') })
  const faultRules = createFaultRules({ store, rngFor: createRngFamily(idSeed, 'fault-rules') })
  // A request refused before its key was checked (no route, say) still belongs to the account of a key the sandbox knows.
  const journal = createRequestJournal({
    limit: config.requestLogLimit,
    accountOfKey: (authorization) => store.keys.get(/^Bearer +(\S+)\s*$/i.exec(authorization)?.[1] ?? '')?.account_id,
    offsetOf: (accountId) => clock.offsetMs(accountId),
  })
  const settlementSteps = createSettlementSteps({ config, clock, store, bus, settlements: () => services.settlements })
  services.hooks.settlementMoved = settlementSteps.schedule
  const control = createSandboxControl({ store, accounts, clock, bus, rules, screening, faults: faultRules, journal, pins, settlementSteps, clocks, events, deliveries: webhooks })
  createPaymentSettlement({ config, clock, store, bus, fixtures, payments: services.payments, decide: createOutcomeDecider({ fixtures, rules, screening }) })

  const deps: AppDeps = { config, clock, store, accounts, services, control, fixtures, startedAtMs: wallClockMs() }
  const faults = createFaults({ config, rules: faultRules })
  const http: HttpServices = {
    limiter: config.rateLimit > 0 ? createRateLimiter(config.rateLimit, options.rateLimitClock) : undefined,
    signatures: createSignatureChecks({ signingSecret: config.signingSecret, maxAgeSeconds: config.signatureMaxAge / 1000, realTime: options.realTime ?? wallClockMs }),
    idempotency: createIdempotency({ records: createIdempotencyRecords(store), clock }),
    requestIds: createRng(idSeed, 'requests'),
    accountRequestIds: createRngFamily(idSeed, 'requests'),
    checkControlToken(header) {
      if (config.controlToken === undefined) return
      if (header !== `Bearer ${config.controlToken}`) {
        throw new ApiError('control_token_invalid', 'The control API needs Authorization: Bearer <token>, with the token given to --control-token.')
      }
    },
    logError: (error) => logger.error('Internal error', error),
    onResponse: config.quiet ? undefined : options.requestLog,
    faults,
    // Off (--request-log-limit 0): not even the listener that would record the request.
    journal: journal.enabled ? journal : undefined,
  }
  const stream = lazyStream(() => createStreamServer({ config, clock, store, accounts, bus, model: prices, tradingPairs: () => pairs.all.map((p) => p.pair), nextRequestId: () => `req_${http.requestIds.base62(24)}`, logger }, options.stream))
  const matching = createOrderMatching({ store, clock, bus, orders: () => services.orders, prices, intervalMs: config.priceInterval })
  // Each route group's module (and the schemas it builds) loads with the first request for it.
  const parts = { prices, pairs, webhooks, events, allRoutes: () => table.loadAll() }
  const table = lazyRoutes(ROUTE_GROUPS.map((group) => ({ paths: group.paths, load: () => group.load(parts) })))
  const app = createApp(deps, http, table.routes, options.beforeRoutes)
  const { expressApp, listener } = app

  let server: Server | undefined
  let plain: PlainConnections | undefined
  let stopGuard = () => {}
  return {
    config, expressApp, clock, store, bus, accounts, services, fixtures, control, webhooks, events, stream, prices, pairs,
    loadRoutes: table.loadAll,
    listen() {
      const nextRequestId = () => `req_${http.requestIds.base62(24)}`
      // node:http's server: every connection's, or (the sandbox's own layer in front) those the layer hands over.
      const nodeServer = () => {
        const made = process.getBuiltinModule('node:http').createServer(serverOptions(config), (req: IncomingMessage, res: ServerResponse) => {
          lastRequestAt = monotonicMs()
          listener(req, res)
        })
        answerClientErrors(made, nextRequestId)
        made.on('upgrade', stream.handleUpgrade)
        return made
      }
      if (options.plainConnections === false) server = nodeServer()
      else {
        // As node:http's server makes its own net.Server: half-open connections left to the HTTP layer
        // to end (as node's socketOnEnd does), and no Nagle delay on the answers' writes.
        server = createNetServer({ allowHalfOpen: true, noDelay: true })
        plain = servePlainConnections(server, { nodeServer, headersTimeout: config.headersTimeout }, app, () => (lastRequestAt = monotonicMs()))
        answerClientErrors(server, nextRequestId)
      }
      stopGuard = guardUnreadAnswers(server, config)
      return new Promise((resolve, reject) => {
        server!.once('error', reject)
        server!.once('listening', () => {
          const { port } = server!.address() as AddressInfo
          const host = config.host.includes(':') ? `[${config.host}]` : config.host
          resolve({ host: config.host, port, url: `http://${host}:${port}` })
        })
        listenOn(server!, config.port, config.host)
      })
    },
    async close() {
      matching.close()
      await stream.close()
      faults.close()
      clock.close()
      webhooks.close()
      events.close()
      journal.close()
      stopGuard()
      if (server) {
        const closed = new Promise<void>((resolve) => server!.close(() => resolve()))
        if (plain) plain.close()
        else (server as HttpServer).closeAllConnections()
        await closed
      }
      await store.close()
    },
  }
}

/**
 * The stream server made on the first upgrade (or the first look at its stats): its price ticker,
 * wallet and order feeds and heartbeat serve only the stream's clients, and making them was 23 KB of
 * young allocation and 1.69 M instructions of a cold start before its first answer; 20 KB and
 * 0.45 M once the process's first `setInterval` (1.2 M) is paid by the server guard's instead
 * (issue 33, round 9). Closed before it was made, it refuses upgrades as a closed stream does.
 */
function lazyStream(make: () => StreamServer): StreamServer {
  let made: StreamServer | undefined
  let closed = false
  const server = () => {
    if (made) return made
    made = make()
    if (closed) void made.close()
    return made
  }
  return {
    handleUpgrade: (req, socket, head) => server().handleUpgrade(req, socket, head),
    stats: () => server().stats(),
    async close() {
      closed = true
      await made?.close()
    },
  }
}

/** `--webhook-url`: every account gets one endpoint for all events, signed with `--webhook-secret` or a secret derived from the seed. */
function configuredEndpointHook(config: Config, clock: Clock): ((state: AccountState) => WebhookEndpointRecord | undefined) | undefined {
  const url = config.webhookUrl
  if (url === undefined) return undefined
  const secret = configuredWebhookSecret(config)
  return (state) => configuredEndpointFor(state, { url, secret, seed: seedOf(config), now: clock.nowIso() })
}

/** The signing secret of `--webhook-url` endpoints (printed in the banner). */
export const configuredWebhookSecret = (config: Config): string => config.webhookSecret ?? defaultConfiguredSecret(seedOf(config))

import { createControlRequest, queryOf, type ControlClientOptions } from './control-request.js'
import { waitForEvent } from './event-wait.js'
import type {
  AccountPaymentFilter, AccountWhitelistFilter, DeliveryFilter, FailPaymentInput, PageOptions, PostingFilter, RequestFilter, SandboxBalance, SandboxClock, SandboxCreatedKey,
  SandboxCreateKeyInput, SandboxDelivery, SandboxFault, SandboxFaultInput, SandboxHealth, SandboxLedgerTransaction, SandboxMagicAddress, SandboxOrder, SandboxOutcomeRule,
  SandboxOutcomeRuleInput, SandboxPayment, SandboxPayout, SandboxPricePin, SandboxRequest, SandboxRequestExpectation, SandboxRequestExpectationResult, SandboxResetResult, SandboxRestoreResult, SandboxSettlement,
  SandboxSettlementFailureCode, SandboxSnapshot, SandboxWallet, SandboxWebhookEndpoint, SandboxWhitelistedAddress, SettlementFilter, EventFilter, EventMatch, SandboxEvent, SandboxEventPage,
} from './control-types.js'

export type * from './control-types.js'
export { SandboxControlError, type ControlClientOptions } from './control-request.js'
export { EventWaitTimeoutError } from './event-wait.js'

/** How long `waitForEvent` waits unless told. */
const DEFAULT_EVENT_TIMEOUT_MS = 10_000

/**
 * A small typed client of the control API (`/_sandbox`, CONTRACT.md sections 10 and 13), for test
 * suites. Each method is one request; it answers the `data` of the reply and throws a
 * SandboxControlError, carrying the API's error code, on anything but 2xx. It imports only types
 * from the server's code (`control-types.ts`), so it carries none of it.
 */

export interface ControlClient {
  health(): Promise<SandboxHealth>
  clock(): Promise<SandboxClock>
  /** Runs everything that falls due (settlements, webhook retries, price ticks) in time order, then answers. */
  advanceClock(ms: number): Promise<SandboxClock>
  /** A pending payment passes through processing (two events). */
  completePayment(paymentId: string): Promise<SandboxPayment>
  /** Without a code, `network_congestion`. */
  failPayment(paymentId: string, input?: FailPaymentInput): Promise<SandboxPayment>
  processPayment(paymentId: string): Promise<SandboxPayment>
  /** Credits a wallet from outside: `amount` is a decimal string such as `"25.00"`. */
  deposit(walletId: string, amount: string, options?: { from_address?: string }): Promise<SandboxWallet>
  /** Back to the fixtures: everything, or only the account of `api_key`. */
  reset(options?: { api_key?: string }): Promise<SandboxResetResult>
  /** The whole state as JSON; `restore` it later (say, before each test) to go back to exactly that. */
  snapshot(): Promise<SandboxSnapshot>
  /** Replaces the whole state with a snapshot; the clock stays where it is. */
  restore(snapshot: SandboxSnapshot): Promise<SandboxRestoreResult>
  /** An account's wallets, newest first, as `/v1` answers them; read without a key, so no rate limit or injected fault. */
  wallets(accountId: string, page?: PageOptions): Promise<SandboxWallet[]>
  /** An account's payments, newest first, as `/v1` answers them; read without a key, so no rate limit or injected fault. */
  payments(accountId: string, filter?: AccountPaymentFilter): Promise<SandboxPayment[]>
  /** Available, locked and total balance of an account's wallets, in the order and pages of `wallets()`. */
  balances(accountId: string, page?: PageOptions): Promise<SandboxBalance[]>
  /** An account's bulk payouts, newest first, as `/v1/payouts` answers them. */
  payouts(accountId: string, page?: PageOptions): Promise<SandboxPayout[]>
  /** An account's webhook endpoints, newest first, as `/v1/webhooks` answers them (no secrets). */
  webhookEndpoints(accountId: string, page?: PageOptions): Promise<SandboxWebhookEndpoint[]>
  /** An account's whitelisted addresses, newest first, as `/v1/whitelisted_addresses` answers them. */
  whitelistedAddresses(accountId: string, filter?: AccountWhitelistFilter): Promise<SandboxWhitelistedAddress[]>
  /** An account's ledger transactions, newest first: every movement of money, each with its balanced postings. */
  postings(accountId: string, filter?: PostingFilter): Promise<SandboxLedgerTransaction[]>
  deliveries(filter?: DeliveryFilter): Promise<SandboxDelivery[]>
  retryDelivery(deliveryId: string): Promise<SandboxDelivery>
  addOutcome(rule: SandboxOutcomeRuleInput): Promise<SandboxOutcomeRule>
  outcomes(): Promise<SandboxOutcomeRule[]>
  clearOutcomes(): Promise<{ deleted: number }>
  createKey(input?: SandboxCreateKeyInput): Promise<SandboxCreatedKey>
  magic(): Promise<SandboxMagicAddress[]>
  /** Finishes a settlement's current step (a pending one starts and finishes its first) and starts the next. */
  advanceSettlement(settlementId: string): Promise<SandboxSettlement>
  /** Fails a settlement's current step; without a code, the step's own (`conversion_failed`, `bridge_failed`, `transfer_failed`). */
  failSettlement(settlementId: string, input?: { failure_code?: SandboxSettlementFailureCode; failure_message?: string }): Promise<SandboxSettlement>
  /** An account's settlements, newest first, as `/v1/settlements` answers them. */
  settlements(accountId: string, filter?: SettlementFilter): Promise<SandboxSettlement[]>
  /** Injects a fault into matching `/v1` requests: `addFault({ match: { path: '/v1/payments' }, fault: 'commit_then_drop', times: 1 })`. */
  addFault(fault: SandboxFaultInput): Promise<SandboxFault>
  listFaults(): Promise<SandboxFault[]>
  removeFaults(): Promise<{ deleted: number }>
  removeFault(faultId: string): Promise<{ id: string; object: 'fault'; deleted: true }>
  /** Pins an `<ASSET>/USD` mid (`'ETH/USD'`, `'EUR/USD'`); crosses follow. `spread_bp` 0 makes bid = ask = price. */
  pinPrice(pair: string, price: string, options?: { spread_bp?: number }): Promise<SandboxPricePin>
  pricePins(): Promise<SandboxPricePin[]>
  unpinPrice(pair: string): Promise<{ pair: string; object: 'price_pin'; deleted: true }>
  unpinPrices(): Promise<{ deleted: number }>
  /** Fills an open order now: by default the remainder at the current ask (buy) or bid (sell); never beyond its limit. */
  fillOrder(orderId: string, input?: { amount?: string; price?: string }): Promise<SandboxOrder>
  /** Rejects an open order that has no fills, releasing what it holds. */
  rejectOrder(orderId: string, reason?: string): Promise<SandboxOrder>
  /** Recent `/v1` requests, newest first (one page: `limit` 1–100, default 20); with `wait`, the next one as soon as it is answered. */
  requests(filter?: RequestFilter): Promise<SandboxRequest[]>
  /**
   * Checks what an account sent (`POST /_sandbox/requests/expect`): `{satisfied, matched,
   * near_misses}`, unsatisfied included (it throws only on a bad expectation). To fail a test
   * instead, see `sandbox.expectRequest()`.
   */
  expectRequest(expectation: SandboxRequestExpectation): Promise<SandboxRequestExpectationResult>
  /** Events as webhooks carry them, oldest first (`GET /_sandbox/events`); with `wait`, the next one as soon as it happens. */
  events(filter?: EventFilter): Promise<SandboxEventPage>
  /**
   * The first event `match` selects, already logged or still to come (default wait: 10 s of real
   * time). Throws an EventWaitTimeoutError that says what it waited for and what the account had.
   */
  waitForEvent(match: EventMatch, options?: { timeoutMs?: number }): Promise<SandboxEvent>
  /** Any other control call: `request('POST', '/reset', {...})` (the path is relative to `/_sandbox`). */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>
}

export function createControlClient(options: ControlClientOptions): ControlClient {
  const request = createControlRequest(options)
  const id = encodeURIComponent
  const query = queryOf
  const events = ({ type, ...filter }: EventFilter = {}): Promise<SandboxEventPage> =>
    request('GET', `/events${query({ ...filter, type: type === undefined ? undefined : [type].flat().join(',') })}`, undefined, { whole: true })

  return {
    health: () => request('GET', '/health'),
    clock: () => request('GET', '/clock'),
    advanceClock: (ms) => request('POST', '/clock/advance', { ms }),
    completePayment: (paymentId) => request('POST', `/payments/${id(paymentId)}/complete`),
    failPayment: (paymentId, input = {}) => request('POST', `/payments/${id(paymentId)}/fail`, input),
    processPayment: (paymentId) => request('POST', `/payments/${id(paymentId)}/process`),
    deposit: (walletId, amount, extra = {}) => request('POST', `/wallets/${id(walletId)}/deposit`, { amount, ...extra }),
    reset: (input = {}) => request('POST', '/reset', input),
    snapshot: () => request('GET', '/snapshot'),
    restore: (snapshot) => request('POST', '/restore', snapshot),
    wallets: (accountId, page = {}) => request('GET', `/accounts/${id(accountId)}/wallets${query(page)}`),
    payments: (accountId, filter = {}) => request('GET', `/accounts/${id(accountId)}/payments${query(filter)}`),
    balances: (accountId, page = {}) => request('GET', `/accounts/${id(accountId)}/balances${query(page)}`),
    payouts: (accountId, page = {}) => request('GET', `/accounts/${id(accountId)}/payouts${query(page)}`),
    webhookEndpoints: (accountId, page = {}) => request('GET', `/accounts/${id(accountId)}/webhooks${query(page)}`),
    whitelistedAddresses: (accountId, filter = {}) => request('GET', `/accounts/${id(accountId)}/whitelisted_addresses${query(filter)}`),
    postings: (accountId, filter = {}) => request('GET', `/accounts/${id(accountId)}/postings${query(filter)}`),
    deliveries: (filter = {}) => request('GET', `/webhooks/deliveries${query(filter)}`),
    retryDelivery: (deliveryId) => request('POST', `/webhooks/deliveries/${id(deliveryId)}/retry`),
    addOutcome: (rule) => request('POST', '/outcomes', rule),
    outcomes: () => request('GET', '/outcomes'),
    clearOutcomes: () => request('DELETE', '/outcomes'),
    createKey: (input = {}) => request('POST', '/keys', input),
    magic: () => request('GET', '/magic'),
    advanceSettlement: (settlementId) => request('POST', `/settlements/${id(settlementId)}/advance`),
    failSettlement: (settlementId, input = {}) => request('POST', `/settlements/${id(settlementId)}/fail`, input),
    settlements: (accountId, filter = {}) => request('GET', `/accounts/${id(accountId)}/settlements${query(filter)}`),
    addFault: (fault) => request('POST', '/faults', fault),
    listFaults: () => request('GET', '/faults'),
    removeFaults: () => request('DELETE', '/faults'),
    removeFault: (faultId) => request('DELETE', `/faults/${id(faultId)}`),
    pinPrice: (pair, price, options = {}) => request('POST', '/prices', { pair, price, ...options }),
    pricePins: () => request('GET', '/prices'),
    unpinPrice: (pair) => request('DELETE', `/prices/${id(pair)}`),
    unpinPrices: () => request('DELETE', '/prices'),
    fillOrder: (orderId, input = {}) => request('POST', `/orders/${id(orderId)}/fill`, input),
    rejectOrder: (orderId, reason) => request('POST', `/orders/${id(orderId)}/reject`, reason === undefined ? {} : { reason }),
    requests: (filter = {}) => request('GET', `/requests${query(filter)}`),
    expectRequest: (expectation) => request('POST', '/requests/expect', expectation),
    events,
    waitForEvent: (match, options = {}) => waitForEvent(events, match, options.timeoutMs ?? DEFAULT_EVENT_TIMEOUT_MS),
    request,
  }
}

import { createControlRequest, queryOf, type ControlClientOptions } from './control-request.js'
import { waitForEvent } from './event-wait.js'
import { createAccountHandle, type SandboxAccount } from './account-handle.js'
import type {
  AccountPaymentFilter, AccountScope, AccountWhitelistFilter, DeliveryFilter, FailPaymentInput, PageOptions, PostingFilter, RequestFilter, SandboxBalance, SandboxClock, SandboxCreatedKey,
  SandboxCreateKeyInput, SandboxDelivery, SandboxFault, SandboxFaultInput, SandboxHealth, SandboxLedgerTransaction, SandboxMagicAddress, SandboxOrder, SandboxOutcomeRule,
  SandboxOutcomeRuleInput, SandboxPayment, SandboxPayout, SandboxPricePin, SandboxRequest, SandboxRequestExpectation, SandboxRequestExpectationResult, SandboxResetResult, SandboxRestoreResult, SandboxSettlement,
  SandboxSettlementFailureCode, SandboxSnapshot, SandboxWallet, SandboxWebhookEndpoint, SandboxWhitelistedAddress, SettlementFilter, EventFilter, EventMatch, SandboxEvent, SandboxEventPage,
} from './control-types.js'

export type * from './control-types.js'
export type { SandboxAccount } from './account-handle.js'
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
  /** The sandbox clock, or one account's (`{ api_key }`). */
  clock(scope?: AccountScope): Promise<SandboxClock>
  /**
   * Runs everything that falls due (settlements, webhook retries, price ticks) in time order, then
   * answers. With `{ api_key }` only that account's clock moves; without, the sandbox's and every
   * account's with it.
   */
  advanceClock(ms: number, scope?: AccountScope): Promise<SandboxClock>
  /** A pending payment passes through processing (two events). */
  completePayment(paymentId: string): Promise<SandboxPayment>
  /** Without a code, `network_congestion`. */
  failPayment(paymentId: string, input?: FailPaymentInput): Promise<SandboxPayment>
  processPayment(paymentId: string): Promise<SandboxPayment>
  /** Credits a wallet from outside: `amount` is a decimal string such as `"25.00"`. */
  deposit(walletId: string, amount: string, options?: { from_address?: string }): Promise<SandboxWallet>
  /** Back to the fixtures: everything, or only the account of `api_key`. */
  reset(options?: { api_key?: string }): Promise<SandboxResetResult>
  /** The whole state as JSON, or one account's (`{ api_key }`); `restore` it later (say, before each test) to go back to exactly that. */
  snapshot(scope?: AccountScope): Promise<SandboxSnapshot>
  /** Replaces the whole state with a snapshot, or an account's snapshot's account alone; the clock goes where the snapshot was taken. */
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
  /** An outcome rule for every account, or (`api_key` in the rule) for one. */
  addOutcome(rule: SandboxOutcomeRuleInput): Promise<SandboxOutcomeRule>
  outcomes(scope?: AccountScope): Promise<SandboxOutcomeRule[]>
  clearOutcomes(scope?: AccountScope): Promise<{ deleted: number }>
  createKey(input?: SandboxCreateKeyInput): Promise<SandboxCreatedKey>
  /** A fresh seeded account with a secret key of its own, as a handle that drives that account alone. */
  newAccount(): Promise<SandboxAccount>
  magic(): Promise<SandboxMagicAddress[]>
  /** Finishes a settlement's current step (a pending one starts and finishes its first) and starts the next. */
  advanceSettlement(settlementId: string): Promise<SandboxSettlement>
  /** Fails a settlement's current step; without a code, the step's own (`conversion_failed`, `bridge_failed`, `transfer_failed`). */
  failSettlement(settlementId: string, input?: { failure_code?: SandboxSettlementFailureCode; failure_message?: string }): Promise<SandboxSettlement>
  /** An account's settlements, newest first, as `/v1/settlements` answers them. */
  settlements(accountId: string, filter?: SettlementFilter): Promise<SandboxSettlement[]>
  /** Injects a fault into matching `/v1` requests: `addFault({ match: { path: '/v1/payments' }, fault: 'commit_then_drop', times: 1 })`. */
  addFault(fault: SandboxFaultInput): Promise<SandboxFault>
  listFaults(scope?: AccountScope): Promise<SandboxFault[]>
  removeFaults(scope?: AccountScope): Promise<{ deleted: number }>
  removeFault(faultId: string): Promise<{ id: string; object: 'fault'; deleted: true }>
  /** Pins an `<ASSET>/USD` mid (`'ETH/USD'`, `'EUR/USD'`); crosses follow. `spread_bp` 0 makes bid = ask = price. */
  pinPrice(pair: string, price: string, options?: { spread_bp?: number } & AccountScope): Promise<SandboxPricePin>
  pricePins(scope?: AccountScope): Promise<SandboxPricePin[]>
  unpinPrice(pair: string, scope?: AccountScope): Promise<{ pair: string; object: 'price_pin'; deleted: true }>
  unpinPrices(scope?: AccountScope): Promise<{ deleted: number }>
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

  const client: ControlClient = {
    health: () => request('GET', '/health'),
    clock: (scope = {}) => request('GET', `/clock${query(scope)}`),
    advanceClock: (ms, scope = {}) => request('POST', '/clock/advance', { ms, ...scope }),
    completePayment: (paymentId) => request('POST', `/payments/${id(paymentId)}/complete`),
    failPayment: (paymentId, input = {}) => request('POST', `/payments/${id(paymentId)}/fail`, input),
    processPayment: (paymentId) => request('POST', `/payments/${id(paymentId)}/process`),
    deposit: (walletId, amount, extra = {}) => request('POST', `/wallets/${id(walletId)}/deposit`, { amount, ...extra }),
    reset: (input = {}) => request('POST', '/reset', input),
    snapshot: (scope = {}) => request('GET', `/snapshot${query(scope)}`),
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
    outcomes: (scope = {}) => request('GET', `/outcomes${query(scope)}`),
    clearOutcomes: (scope = {}) => request('DELETE', `/outcomes${query(scope)}`),
    createKey: (input = {}) => request('POST', '/keys', input),
    async newAccount() {
      const key = await client.createKey()
      return createAccountHandle(client, { apiKey: key.key, accountId: key.account_id })
    },
    magic: () => request('GET', '/magic'),
    advanceSettlement: (settlementId) => request('POST', `/settlements/${id(settlementId)}/advance`),
    failSettlement: (settlementId, input = {}) => request('POST', `/settlements/${id(settlementId)}/fail`, input),
    settlements: (accountId, filter = {}) => request('GET', `/accounts/${id(accountId)}/settlements${query(filter)}`),
    addFault: (fault) => request('POST', '/faults', fault),
    listFaults: (scope = {}) => request('GET', `/faults${query(scope)}`),
    removeFaults: (scope = {}) => request('DELETE', `/faults${query(scope)}`),
    removeFault: (faultId) => request('DELETE', `/faults/${id(faultId)}`),
    pinPrice: (pair, price, options = {}) => request('POST', '/prices', { pair, price, ...options }),
    pricePins: (scope = {}) => request('GET', `/prices${query(scope)}`),
    unpinPrice: (pair, scope = {}) => request('DELETE', `/prices/${id(pair)}${query(scope)}`),
    unpinPrices: (scope = {}) => request('DELETE', `/prices${query(scope)}`),
    fillOrder: (orderId, input = {}) => request('POST', `/orders/${id(orderId)}/fill`, input),
    rejectOrder: (orderId, reason) => request('POST', `/orders/${id(orderId)}/reject`, reason === undefined ? {} : { reason }),
    requests: (filter = {}) => request('GET', `/requests${query(filter)}`),
    expectRequest: (expectation) => request('POST', '/requests/expect', expectation),
    events,
    waitForEvent: (match, options = {}) => waitForEvent(events, match, options.timeoutMs ?? DEFAULT_EVENT_TIMEOUT_MS),
    request,
  }
  return client
}

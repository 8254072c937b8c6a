import type { z } from 'zod'
import type { FailureCode } from '../model/failures.js'
import type { CreateFaultSchema, FaultSchema } from '../schemas/faults.js'
import type { CreateOutcomeRuleSchema, OutcomeRuleSchema } from '../schemas/outcome-rules.js'
import type { ClockSchema, CreatedKeySchema, CreateKeySchema, MagicAddressSchema, RequestJournalEntrySchema, ResetResultSchema, RestoreResultSchema, SnapshotSchema } from '../schemas/control.js'
import type { OrderSchema } from '../schemas/order.js'
import type { PaymentSchema } from '../schemas/payment.js'
import type { SettlementFailureCode } from '../model/failures.js'
import type { SettlementSchema } from '../schemas/settlement.js'
import type { PricePinSchema } from '../schemas/price.js'
import type { LedgerTransactionSchema } from '../schemas/postings.js'
import type { PayoutSchema } from '../schemas/payout.js'
import type { DeliverySchema, WebhookEndpointSchema } from '../schemas/webhook.js'
import type { BalanceSchema, WalletSchema } from '../schemas/wallet.js'
import type { WhitelistedAddressSchema } from '../schemas/whitelist.js'

/**
 * A small typed client of the control API (`/_sandbox`, CONTRACT.md sections 10 and 13), for test
 * suites. Each method is one request; it answers the `data` of the reply and throws a
 * SandboxControlError, carrying the API's error code, on anything but 2xx.
 * Only type imports above: the client carries no server code.
 */

export type SandboxClock = z.output<typeof ClockSchema>
export type SandboxPayment = z.output<typeof PaymentSchema>
export type SandboxOrder = z.output<typeof OrderSchema>
export type SandboxWallet = z.output<typeof WalletSchema>
export type SandboxBalance = z.output<typeof BalanceSchema>
export type SandboxPayout = z.output<typeof PayoutSchema>
export type SandboxSettlement = z.output<typeof SettlementSchema>
export type SandboxSettlementFailureCode = SettlementFailureCode
export type SandboxWebhookEndpoint = z.output<typeof WebhookEndpointSchema>
export type SandboxWhitelistedAddress = z.output<typeof WhitelistedAddressSchema>
export type SandboxResetResult = z.output<typeof ResetResultSchema>
export type SandboxOutcomeRule = z.output<typeof OutcomeRuleSchema>
export type SandboxOutcomeRuleInput = z.input<typeof CreateOutcomeRuleSchema>
export type SandboxCreateKeyInput = z.input<typeof CreateKeySchema>
export type SandboxCreatedKey = z.output<typeof CreatedKeySchema>
export type SandboxMagicAddress = z.output<typeof MagicAddressSchema>
/** The whole state, as `GET /_sandbox/snapshot` answers it (the `--data-file` format plus `taken_at`). */
export type SandboxSnapshot = z.input<typeof SnapshotSchema>
export type SandboxRestoreResult = z.output<typeof RestoreResultSchema>
export type SandboxFault = z.output<typeof FaultSchema>
export type SandboxFaultInput = z.input<typeof CreateFaultSchema>
/** One movement of money in an account's ledger, with its postings (signed amounts that sum to zero). */
export type SandboxLedgerTransaction = z.output<typeof LedgerTransactionSchema>
/** One `/v1` request of the journal (`GET /_sandbox/requests`). */
export type SandboxRequest = z.output<typeof RequestJournalEntrySchema>
/** One webhook delivery: an event sent to one endpoint, with every attempt. */
export type SandboxDelivery = z.output<typeof DeliverySchema>
/** A pinned `<ASSET>/USD` mid price (`POST /_sandbox/prices`). */
export type SandboxPricePin = z.output<typeof PricePinSchema>

export interface SandboxHealth {
  status: 'ok'
  version: string
  uptime_s: number
}

/** A page of a list: `limit` 1 to 100 (default 20), `offset` from 0. */
export interface PageOptions {
  limit?: number
  offset?: number
}

export interface SettlementFilter extends PageOptions {
  status?: SandboxSettlement['status']
  destination_type?: 'wallet' | 'address' | 'bank_account'
}

export interface DeliveryFilter extends PageOptions {
  event_id?: string
  endpoint_id?: string
  account_id?: string
  status?: SandboxDelivery['status']
}

export interface RequestFilter extends PageOptions {
  method?: string
  /** Exact, or a prefix ending in `*`: `/v1/payments*`. */
  path?: string
  status?: number
  account_id?: string
}

export interface AccountPaymentFilter extends PageOptions {
  status?: SandboxPayment['status']
}

export interface AccountWhitelistFilter extends PageOptions {
  network?: SandboxWhitelistedAddress['network']
}

export interface PostingFilter extends PageOptions {
  /** Only the transactions that touch this wallet. */
  wallet_id?: string
}

export interface FailPaymentInput {
  failure_code?: FailureCode
  failure_message?: string
}

/** A non-2xx answer of the control API. `code` is the API's error code (`invalid_state_transition` …). */
export class SandboxControlError extends Error {
  override name = 'SandboxControlError'
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly type: string,
    readonly param: string | undefined,
    readonly requestId: string | undefined,
  ) {
    super(message)
  }
}

export interface ControlClientOptions {
  /** The sandbox address without `/v1`, e.g. `http://127.0.0.1:4400`. */
  baseUrl: string
  /** The `--control-token`, when the sandbox was started with one. */
  controlToken?: string
  /** Another fetch (a proxy, a spy); the global one by default. */
  fetch?: typeof fetch
}

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
  /** Recent `/v1` requests, newest first (one page: `limit` 1–100, default 20). */
  requests(filter?: RequestFilter): Promise<SandboxRequest[]>
  /** Any other control call: `request('POST', '/reset', {...})` (the path is relative to `/_sandbox`). */
  request<T = unknown>(method: string, path: string, body?: unknown): Promise<T>
}

export function createControlClient(options: ControlClientOptions): ControlClient {
  const base = `${options.baseUrl.replace(/\/+$/, '')}/_sandbox`
  const doFetch = options.fetch ?? fetch
  const id = encodeURIComponent

  async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' }
    if (options.controlToken !== undefined) headers.authorization = `Bearer ${options.controlToken}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const res = await doFetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await res.text()
    let payload: { data?: unknown; request_id?: string; error?: { type?: string; code?: string; message?: string; param?: string } } | undefined
    try {
      payload = text ? JSON.parse(text) : undefined
    } catch {
      payload = undefined
    }
    if (!res.ok) {
      const error = payload?.error
      throw new SandboxControlError(
        `${method} /_sandbox${path} failed with ${res.status}${error?.code ? ` ${error.code}` : ''}: ${error?.message ?? text.slice(0, 200)}`,
        res.status, error?.code ?? 'unknown', error?.type ?? 'unknown', error?.param, payload?.request_id,
      )
    }
    return (payload?.data ?? payload) as T
  }

  const query = (filter: object) => {
    const entries = Object.entries(filter).filter(([, value]) => value !== undefined).map(([key, value]): [string, string] => [key, String(value)])
    return entries.length ? `?${new URLSearchParams(entries)}` : ''
  }

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
    request,
  }
}

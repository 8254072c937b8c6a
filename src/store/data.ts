import type { KeyRecord, OrderFill, OrderRecord, PaymentRecord, WalletRecord } from '../model/records.js'
import { restoreRng, type RngState } from '../rng.js'
import type { AccountData, Data } from '../schemas/data-file.js'
import { OrderIndex } from './order-index.js'
import { PaymentIndex } from './payment-index.js'
import { SettlementIndex } from './settlement-index.js'
import { postingsFromData, postingsToData } from './postings-data.js'
import type { AccountState } from './account-state.js'

/** The store's state to and from the data file's form; the form is `schemas/data-file.ts`, its checks beyond the schema `schemas/data-file-consistency.ts`. */

type WalletData = AccountData['wallets'][number]
type PaymentData = AccountData['payments'][number]
type OrderData = AccountData['orders'][number]

export const encodeWallet = (w: WalletRecord) => ({ ...w, available: String(w.available), locked: String(w.locked) })
export const decodeWallet = (w: WalletData): WalletRecord => ({ ...w, available: BigInt(w.available), locked: BigInt(w.locked) })
export const encodePayment = (p: PaymentRecord) => ({ ...p, amount_units: String(p.amount_units) })
export const decodePayment = (p: PaymentData): PaymentRecord => ({ ...p, amount_units: BigInt(p.amount_units) })

export const encodeOrder = (o: OrderRecord) => ({
  ...o,
  amount_units: String(o.amount_units),
  filled_units: String(o.filled_units),
  quote_num: String(o.quote_num),
  quote_units: String(o.quote_units),
  fee_units: String(o.fee_units),
  locked_units: String(o.locked_units),
  fills: o.fills.map(encodeFill),
  metadata: { ...o.metadata },
})
export const encodeFill = (f: OrderFill) => ({ ...f, amount: String(f.amount), fee: String(f.fee) })
export const decodeOrder = (o: OrderData): OrderRecord => ({
  ...o,
  amount_units: BigInt(o.amount_units),
  filled_units: BigInt(o.filled_units),
  quote_num: BigInt(o.quote_num),
  quote_units: BigInt(o.quote_units),
  fee_units: BigInt(o.fee_units),
  locked_units: BigInt(o.locked_units),
  fills: o.fills.map((f) => ({ ...f, amount: BigInt(f.amount), fee: BigInt(f.fee) })),
  metadata: { ...o.metadata },
})

export const emptyData = (): Data => ({ version: 1, accounts: [], keys: [], control: {} })

export function accountToData(state: AccountState): AccountData {
  return {
    account: { ...state.account },
    rng_state: state.rng.state(),
    wallets: [...state.wallets.values()].map((w) => ({ ...encodeWallet(w), metadata: { ...w.metadata } })),
    payments: state.payments.values().map((p) => ({ ...encodePayment(p), metadata: { ...p.metadata }, plan: p.plan && { ...p.plan } })),
    orders: state.orders.values().map(encodeOrder),
    payouts: [...state.payouts.values()].map((p) => ({ ...p, payment_ids: [...p.payment_ids], metadata: { ...p.metadata } })),
    settlements: state.settlements.values().map((s) => structuredClone(s)),
    whitelist: [...state.whitelist.values()].map((entry) => ({ ...entry })),
    webhooks: [...state.webhooks.values()].map((endpoint) => ({ ...endpoint, events: [...endpoint.events] })),
    // In-flight requests are not acknowledged yet, so they are not kept.
    idempotency: [...state.idempotency.values()].filter((r) => r.state === 'done').map((r) => ({ ...r, state: 'done' as const })),
    quotes: [...state.quotes.values()].map((quote) => ({ ...quote })),
    postings: postingsToData(state.postings),
  }
}

export function accountFromData(data: AccountData): AccountState {
  const payments = new PaymentIndex()
  // In creation order, as the index takes them (a restored document could list them otherwise).
  for (const p of [...data.payments].sort((a, b) => a.seq - b.seq)) payments.add(decodePayment(p))
  const orders = new OrderIndex()
  for (const o of [...data.orders].sort((a, b) => a.seq - b.seq)) orders.add(decodeOrder(o))
  return {
    account: { ...data.account },
    rng: restoreRng(data.rng_state as RngState),
    wallets: new Map(data.wallets.map((w) => [w.id, decodeWallet(w)])),
    payments,
    orders,
    payouts: new Map(data.payouts.map((p) => [p.id, { ...p, payment_ids: [...p.payment_ids], metadata: { ...p.metadata } }])),
    settlements: settlementsFromData(data.settlements),
    whitelist: new Map(data.whitelist.map((entry) => [entry.id, { ...entry }])),
    webhooks: new Map(data.webhooks.map((endpoint) => [endpoint.id, { ...endpoint }])),
    idempotency: new Map(data.idempotency.map((record) => [record.scope, { ...record }])),
    quotes: new Map(data.quotes.map((quote) => [quote.id, { ...quote }])),
    postings: postingsFromData(data.postings, data.wallets),
  }
}

export const keysFromData = (data: Data): KeyRecord[] => data.keys.map((k) => ({ ...k, scopes: [...k.scopes], allowed_ips: [...k.allowed_ips] }))

function settlementsFromData(settlements: AccountData['settlements']): SettlementIndex {
  const index = new SettlementIndex()
  for (const settlement of settlements) index.put(structuredClone(settlement))
  return index
}

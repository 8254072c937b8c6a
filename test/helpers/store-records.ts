import { put, type Change } from '../../src/store/changes.js'
import { accountFromData } from '../../src/store/data.js'
import type { OrderRecord, PaymentRecord, WalletRecord } from '../../src/model/records.js'

/** Small records for store tests, built directly (no fixtures, no services). */

export const ACCOUNT = 'acct_store_test'
const AT = '2026-01-01T00:00:00.000Z'

export const tenant = (id = ACCOUNT): Change =>
  put('tenant', undefined, id, accountFromData({
    account: { id, created_at: AT, whitelist_enforced: false }, rng_state: [1, 2, 3, 4],
    wallets: [], payments: [], orders: [], payouts: [], settlements: [], whitelist: [], webhooks: [], idempotency: [], quotes: [],
  }))

export const wallet = (id: string, available: bigint, locked = 0n): WalletRecord => ({
  id, type: 'user', name: id, address: '0x52908400098527886E0F7030069857D2E4169EE7', currency: 'USDC', network: 'polygon',
  status: 'active', metadata: {}, created_at: AT, updated_at: AT, available, locked,
})

export const payment = (seq: number, source: string, units = 1n): PaymentRecord => ({
  id: `pay_${String(seq).padStart(24, '0')}`, seq, amount_units: units, amount: `0.${String(units).padStart(6, '0')}`, currency: 'USDC', network: 'polygon',
  status: 'pending', source, destination: '0x52908400098527886E0F7030069857D2E4169EE7', destination_type: 'address', description: null, metadata: {},
  tx_hash: null, failure_code: null, failure_message: null, payout_id: null, created_at: AT, updated_at: AT, completed_at: null, plan: null,
})

export const order = (seq: number, base: string, quote: string): OrderRecord => ({
  id: `ord_${String(seq).padStart(24, '0')}`, seq, pair: 'ETH/USDC', base: 'ETH', quote: 'USDC', side: 'buy', type: 'limit', status: 'open', time_in_force: 'gtc',
  amount_units: 10n ** 20n, filled_units: 0n, limit_price: '3000.00', expires_at: null, base_wallet: base, quote_wallet: quote, base_decimals: 18, quote_decimals: 6,
  quote_id: null, fee_bps: 10, quote_num: 0n, quote_units: 0n, fee_units: 0n, locked_units: 300_300_000_000n, fills: [], reject_reason: null, metadata: {},
  created_at: AT, updated_at: AT, completed_at: null,
})

/** A payment created from a wallet: the payment and the wallet with its amount locked, in one change set. */
export function paymentChanges(source: WalletRecord, seq: number, units = 1n, account = ACCOUNT): Change[] {
  const locked = { ...source, available: source.available - units, locked: source.locked + units }
  return [put('wallet', account, source.id, locked), put('payment', account, `pay_${String(seq).padStart(24, '0')}`, payment(seq, source.id, units))]
}

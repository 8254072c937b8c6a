import type * as z from 'zod'
import type { EventType } from '../model/events.js'
import type { PayoutSchema } from '../schemas/payout.js'
import type { BalanceSchema, WalletSchema } from '../schemas/wallet.js'
import type { WebhookEndpointSchema } from '../schemas/webhook.js'
import type { WhitelistedAddressSchema } from '../schemas/whitelist.js'
import { ASSETS } from '../model/networks.js'
import { formatAmount } from '../money.js'
import { PresentedPayment } from '../payment-json.js'
import type { PaymentRecord, PayoutRecord, WalletRecord, WhitelistRecord, WebhookEndpointRecord } from '../model/records.js'

/** Wire shapes (CONTRACT.md sections 4, 5, 9) rendered from ledger records. */

export const decimalsOf = (wallet: Pick<WalletRecord, 'network' | 'currency'>): number => ASSETS[wallet.network][wallet.currency]!

export function presentWallet(wallet: WalletRecord): z.input<typeof WalletSchema> {
  return {
    id: wallet.id,
    object: 'wallet' as const,
    type: wallet.type,
    name: wallet.name,
    address: wallet.address,
    currency: wallet.currency,
    network: wallet.network,
    status: wallet.status,
    balance: formatAmount(wallet.available + wallet.locked, decimalsOf(wallet)),
    metadata: { ...wallet.metadata },
    created_at: wallet.created_at,
    updated_at: wallet.updated_at,
  }
}

export function presentBalance(wallet: WalletRecord): z.input<typeof BalanceSchema> {
  const decimals = decimalsOf(wallet)
  return {
    object: 'balance' as const,
    wallet_id: wallet.id,
    available_balance: formatAmount(wallet.available, decimals),
    locked_balance: formatAmount(wallet.locked, decimals),
    total_balance: formatAmount(wallet.available + wallet.locked, decimals),
    currency: wallet.currency,
  }
}

/** A class, so that its JSON is written by code made for its shape (src/payment-json.ts). */
export const presentPayment = (payment: PaymentRecord): PresentedPayment => new PresentedPayment(payment)

export function presentPayout(payout: PayoutRecord): z.input<typeof PayoutSchema> {
  return {
    id: payout.id,
    object: 'payout' as const,
    status: payout.status,
    source: payout.source,
    currency: payout.currency,
    total_amount: payout.total_amount,
    item_count: payout.payment_ids.length,
    payment_ids: [...payout.payment_ids],
    metadata: { ...payout.metadata },
    created_at: payout.created_at,
    updated_at: payout.updated_at,
  }
}

export function presentWhitelisted(entry: WhitelistRecord): z.input<typeof WhitelistedAddressSchema> {
  return { id: entry.id, object: 'whitelisted_address' as const, address: entry.address, network: entry.network, label: entry.label, created_at: entry.created_at }
}

export function presentWebhookEndpoint(endpoint: WebhookEndpointRecord): z.input<typeof WebhookEndpointSchema> {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    // Normalised to EVENT_TYPES on every write by the ledger; the record's type stays wide for hand-edited data files.
    events: [...endpoint.events] as EventType[],
    description: endpoint.description,
    status: endpoint.status,
    created_at: endpoint.created_at,
  }
}

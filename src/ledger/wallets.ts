import { generateAddress } from '../chain/networks.js'
import { type Network } from '../model/networks.js'
import type { Clock } from '../clock.js'
import { ApiError, notFound } from '../errors.js'
import type { Publisher } from '../events/publisher.js'
import { newId } from '../ids.js'
import { formatAmount, toBaseUnits } from '../money.js'
import type { Metadata, WalletRecord, WalletStatus, WalletType } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { put, type Change } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { deposit } from './balances.js'
import { newestFirst } from './page.js'
import { decimalsOf, presentBalance } from './present.js'

export interface CreateWalletInput {
  name: string
  currency: string
  network: Network
  type: WalletType
  metadata: Metadata
}

export interface UpdateWalletInput {
  name?: string
  metadata?: Metadata
  status?: 'active' | 'frozen'
}

export interface WalletFilter {
  network?: Network
  currency?: string
  type?: WalletType
  status?: WalletStatus
  external_user_id?: string
}

export type WalletService = ReturnType<typeof createWalletService>

export function createWalletService(deps: { store: Store; clock: Clock; publisher: Publisher }) {
  const { store, clock, publisher } = deps

  function get(account: AccountState, id: string, param?: string): WalletRecord {
    const wallet = account.wallets.get(id)
    if (!wallet) throw notFound('wallet', id, param)
    return wallet
  }

  /** The stored wallet, now updated in place to `next`. */
  function save(account: AccountState, next: WalletRecord): WalletRecord {
    store.apply([put('wallet', account.account.id, next.id, next)])
    return account.wallets.get(next.id)!
  }

  return {
    get,

    create(account: AccountState, input: CreateWalletInput): WalletRecord {
      const now = clock.nowIso(account.account.id)
      const wallet: WalletRecord = {
        id: newId('wal', account.rng),
        type: input.type,
        name: input.name,
        address: generateAddress(input.network, account.rng),
        currency: input.currency,
        network: input.network,
        status: 'active',
        metadata: input.metadata,
        created_at: now,
        updated_at: now,
        available: 0n,
        locked: 0n,
      }
      store.apply([put('wallet', account.account.id, wallet.id, wallet)])
      return wallet
    },

    /** Newest first. */
    list(account: AccountState, filter: WalletFilter, offset: number, limit: number) {
      return newestFirst(
        account.wallets.values(),
        (w) =>
          (!filter.network || w.network === filter.network) &&
          (!filter.currency || w.currency === filter.currency) &&
          (!filter.type || w.type === filter.type) &&
          (!filter.status || w.status === filter.status) &&
          (filter.external_user_id === undefined || w.metadata.external_user_id === filter.external_user_id),
        offset,
        limit,
      )
    },

    update(account: AccountState, id: string, input: UpdateWalletInput): WalletRecord {
      const wallet = get(account, id)
      if (wallet.status === 'closed') {
        throw new ApiError('invalid_state_transition', `Wallet ${id} is closed; a closed wallet cannot be changed or reopened.`)
      }
      const { name = wallet.name, metadata = wallet.metadata, status = wallet.status } = input
      return save(account, { ...wallet, name, metadata, status, updated_at: clock.nowIso(account.account.id) })
    },

    /** DELETE: only an empty wallet with nothing in flight; it stays readable as `closed`. */
    close(account: AccountState, id: string): WalletRecord {
      const wallet = get(account, id)
      if (wallet.status === 'closed') return wallet
      const total = wallet.available + wallet.locked
      if (total > 0n) {
        throw new ApiError(
          'wallet_not_empty',
          `Wallet ${id} holds ${formatAmount(total, decimalsOf(wallet))} ${wallet.currency}; move the funds out before deleting it.`,
        )
      }
      if (account.payments.hasOpenPayments(id)) {
        throw new ApiError('wallet_not_empty', `Wallet ${id} has payments that are not final yet; wait for them to complete or fail.`)
      }
      if (account.orders.hasOpenOrders(id)) {
        throw new ApiError('wallet_not_empty', `Wallet ${id} trades in orders that are still open; cancel them or wait for them to fill.`)
      }
      if (account.settlements.hasOpen(id)) {
        throw new ApiError('wallet_not_empty', `Wallet ${id} has settlements that are not final yet; wait for them to complete, fail or be refunded.`)
      }
      return save(account, { ...wallet, status: 'closed', updated_at: clock.nowIso(account.account.id) })
    },

    /** Control API: funds arriving from outside. */
    deposit(account: AccountState, id: string, amount: string, fromAddress: string | undefined): WalletRecord {
      const wallet = get(account, id)
      if (wallet.status === 'closed') throw new ApiError('wallet_inactive', `Wallet ${id} is closed and cannot receive funds.`)
      const decimals = decimalsOf(wallet)
      const units = parseAmountFor(amount, decimals, wallet)
      const from = fromAddress ?? generateAddress(wallet.network, account.rng)
      const next = { ...wallet, updated_at: clock.nowIso(account.account.id) }
      const changes: Change[] = []
      deposit(account, next, units, from, clock.now(account.account.id), changes)
      store.apply([put('wallet', account.account.id, next.id, next), ...changes])
      publisher.wallet(account, wallet.id, 'deposit.received', () => ({ wallet_id: wallet.id, amount: formatAmount(units, decimals), currency: wallet.currency, from_address: from }))
      publisher.wallet(account, wallet.id, 'balance.updated', () => presentBalance(wallet))
      return wallet
    },
  }
}

/** Checks an already well-formed amount against an asset's decimals; 400 `parameter_invalid` on `amount`. */
export function parseAmountFor(amount: string, decimals: number, what: string | Pick<WalletRecord, 'currency' | 'network'>, param = 'amount'): bigint {
  const dot = amount.indexOf('.')
  const places = dot === -1 ? 0 : amount.length - dot - 1
  if (places > decimals) {
    // A wallet's asset named only when refused: the words were made for every payment before.
    const asset = typeof what === 'string' ? what : `${what.currency} on ${what.network}`
    throw new ApiError('parameter_invalid', `${param} has ${places} decimal places; ${asset} allows at most ${decimals}.`, { param })
  }
  return toBaseUnits(amount, decimals)
}

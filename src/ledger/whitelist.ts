import { addressKey, describeAddressFormat, isValidAddress } from '../chain/networks.js'
import { type Network } from '../model/networks.js'
import type { Clock } from '../clock.js'
import { ApiError, echoId, notFound } from '../errors.js'
import { newId } from '../ids.js'
import type { WhitelistRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { put, remove } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { newestFirst } from './page.js'

export type WhitelistService = ReturnType<typeof createWhitelistService>

/**
 * 422 `recipient_not_whitelisted` when the whitelist is enforced (for every account, or for this
 * one) and `address` is not on it for `network` (CONTRACT.md section 5).
 */
export function assertWhitelisted(account: AccountState, network: Network, address: string, enforcedForAll: boolean, param: string): void {
  if (!enforcedForAll && !account.account.whitelist_enforced) return
  const key = addressKey(network, address)
  if ([...account.whitelist.values()].some((e) => e.network === network && addressKey(e.network, e.address) === key)) return
  throw new ApiError('recipient_not_whitelisted', `${address} is not on this account's whitelist for ${network}; add it with POST /v1/whitelisted_addresses.`, { param })
}

/** The account's pre-approved external addresses (CONTRACT.md section 5). */
export function createWhitelistService(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps
  return {
    add(account: AccountState, input: { address: string; network: Network; label?: string | null }): WhitelistRecord {
      if (!isValidAddress(input.network, input.address)) {
        throw new ApiError('parameter_invalid', `address must be ${describeAddressFormat(input.network)}; '${echoId(input.address)}' is not.`, { param: 'address' })
      }
      const key = addressKey(input.network, input.address)
      for (const entry of account.whitelist.values()) {
        if (entry.network === input.network && addressKey(entry.network, entry.address) === key) {
          throw new ApiError('parameter_invalid', `${input.address} is already whitelisted for ${input.network} as ${entry.id}.`, { param: 'address' })
        }
      }
      const entry: WhitelistRecord = { id: newId('wla', account.rng), address: input.address, network: input.network, label: input.label ?? null, created_at: clock.nowIso(account.account.id) }
      store.apply([put('whitelist', account.account.id, entry.id, entry)])
      return entry
    },

    /** Newest first. */
    list(account: AccountState, filter: { network?: Network }, offset: number, limit: number) {
      return newestFirst(account.whitelist.values(), (e) => !filter.network || e.network === filter.network, offset, limit)
    },

    remove(account: AccountState, id: string): WhitelistRecord {
      const entry = account.whitelist.get(id)
      if (!entry) throw notFound('whitelisted address', id)
      store.apply([remove('whitelist', account.account.id, id)])
      return entry
    },
  }
}

import { addressKey } from '../chain/networks.js'
import { type Network } from '../model/networks.js'
import type { Fixtures } from '../fixtures.js'
import { lazily } from '../lazily.js'
import { put, type Change } from '../store/changes.js'
import type { Store } from '../store/store.js'

const KEY = 'screening_flagged'
/** An entry flagged for one account only starts with the account's id: `acct_…/solana:<address>`. */
const SCOPE_END = '/'

/**
 * The screening list: the fixtures' flagged addresses plus those flagged through the control API,
 * for every account or for one (CONTRACT.md section 24). Kept in `store.control`, so snapshots,
 * resets and the data file see it.
 */
export function createScreening(deps: { fixtures: Fixtures; store: Store }) {
  const { store } = deps
  // Built on the first check: the shipped screening file is read then (src/fixtures.ts).
  const fromFixtures = lazily(() => new Set(deps.fixtures.screening.map((entry) => `${entry.network}:${addressKey(entry.network, entry.address)}`)))
  const added = (): readonly string[] => (store.control[KEY] as string[] | undefined) ?? []
  const save = (list: string[]) => store.apply([put('control', undefined, KEY, list)])
  const keyOf = (network: Network, address: string, accountId?: string) => `${accountId === undefined ? '' : accountId + SCOPE_END}${network}:${addressKey(network, address)}`
  const isOfAccount = (entry: string, accountId: string) => entry.startsWith(accountId + SCOPE_END)

  return {
    /** Flagged for every account, or for this one. */
    isFlagged(network: Network, address: string, accountId: string): boolean {
      const key = keyOf(network, address)
      return fromFixtures().has(key) || added().includes(key) || added().includes(keyOf(network, address, accountId))
    },
    flag(network: Network, address: string, accountId?: string): void {
      const key = keyOf(network, address, accountId)
      if (!added().includes(key)) save([...added(), key])
    },
    /** Returns false when the address was not flagged through the control API (for that account, with one). */
    unflag(network: Network, address: string, accountId?: string): boolean {
      const key = keyOf(network, address, accountId)
      if (!added().includes(key)) return false
      save(added().filter((entry) => entry !== key))
      return true
    },
    /** Unflags everything flagged through the control API, or everything flagged for one account. */
    clear(accountId?: string): void {
      save(accountId === undefined ? [] : added().filter((entry) => !isOfAccount(entry, accountId)))
    },
    /** The entries flagged for one account, without its id: `solana:<address>`. */
    ofAccount: (accountId: string): string[] => added().filter((entry) => isOfAccount(entry, accountId)).map((entry) => entry.slice(accountId.length + SCOPE_END.length)),
    /** An account's restore: its entries become `entries` (`network:address`), every other entry stays. */
    replaceAccount(accountId: string, entries: readonly string[]): Change {
      return put('control', undefined, KEY, [...added().filter((entry) => !isOfAccount(entry, accountId)), ...entries.map((entry) => accountId + SCOPE_END + entry)])
    },
  }
}

export type Screening = ReturnType<typeof createScreening>

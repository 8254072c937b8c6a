import { addressKey } from '../chain/networks.js'
import { type Network } from '../model/networks.js'
import type { Fixtures } from '../fixtures.js'
import { put } from '../store/changes.js'
import type { Store } from '../store/store.js'

const KEY = 'screening_flagged'

/** The screening list: the fixtures' flagged addresses plus those flagged through the control API. */
export function createScreening(deps: { fixtures: Fixtures; store: Store }) {
  const { store } = deps
  const fromFixtures = new Set(deps.fixtures.screening.map((entry) => `${entry.network}:${addressKey(entry.network, entry.address)}`))
  const added = (): readonly string[] => (store.control[KEY] as string[] | undefined) ?? []
  const save = (list: string[]) => store.apply([put('control', undefined, KEY, list)])
  const keyOf = (network: Network, address: string) => `${network}:${addressKey(network, address)}`

  return {
    isFlagged: (network: Network, address: string) => fromFixtures.has(keyOf(network, address)) || added().includes(keyOf(network, address)),
    flag(network: Network, address: string): void {
      const key = keyOf(network, address)
      if (!added().includes(key)) save([...added(), key])
    },
    /** Returns false when the address was not flagged through the control API. */
    unflag(network: Network, address: string): boolean {
      const key = keyOf(network, address)
      if (!added().includes(key)) return false
      save(added().filter((entry) => entry !== key))
      return true
    },
    clear(): void {
      save([])
    },
  }
}

export type Screening = ReturnType<typeof createScreening>

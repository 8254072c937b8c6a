import type { OpenStoreResult, Store, StoreOptions } from './store-types.js'
import { createState } from './state.js'

export { StoreLoadError } from './load-error.js'
export type { Durability } from './journal-writer.js'
export type { OpenStoreResult, Store, StoreOptions } from './store-types.js'

export async function openStore(options: StoreOptions): Promise<OpenStoreResult> {
  if (!options.dataFile) return { store: createMemoryStore(), loaded: false }
  // Loaded only for a data file: an in-memory sandbox starts without the file machinery (cold start).
  const { openFileStore } = await import('./file-store.js')
  return openFileStore({ ...options, dataFile: options.dataFile })
}

export function createMemoryStore(): Store {
  const state = createState()
  return {
    accounts: state.accounts,
    keys: state.keys,
    control: state.control,
    logs: state.logs,
    dataFile: undefined,
    apply: (changes) => state.apply(changes),
    durable: () => undefined,
    flush: async () => {},
    compact: async () => {},
    toData: state.toData,
    close: async () => {},
  }
}

import { faker } from '@faker-js/faker/locale/en'
import { generateAddress } from '../chain/networks.js'
import { ASSETS, type Network } from '../model/networks.js'
import type { Clock } from '../clock.js'
import type { Fixtures } from '../fixtures.js'
import { newId } from '../ids.js'
import { toBaseUnits } from '../money.js'
import { createRng, forkRngState, restoreRng } from '../rng.js'
import { PaymentIndex } from '../store/payment-index.js'
import { PostingsLog } from '../store/postings-log.js'
import type { KeyRecord, KeyType, Scope, WalletRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import type { Store } from '../store/store.js'
import { openBalance } from './balances.js'

export interface Accounts {
  /** Creates the fixtures' default account and its keys, unless the store has it already. */
  ensureDefault(): AccountState
  /** Open auth: the account behind a well-formed `sk_test_` key, provisioned on first use. */
  forNewSecretKey(key: string): AccountState
  /** Control API: a new key, on an existing account or on a freshly seeded one. */
  createKey(options: { accountId?: string; type: KeyType; scopes: Array<Scope | '*'>; allowedIps: string[] }): KeyRecord
  /** Back to the fixtures: same id, same keys, freshly seeded wallets, nothing else. */
  reset(accountId: string): AccountState
  get(accountId: string): AccountState | undefined
  /**
   * Starts a new generation of ids (a restore): accounts seeded from now on draw their later ids
   * from a stream of this generation, so they do not replay the ids an earlier incarnation issued.
   * Returns the generation, for forking the restored accounts' generators the same way.
   */
  newIdGeneration(): number
}

/**
 * Seeds accounts from the fixtures. Everything an account gets is drawn from a generator derived
 * from the sandbox seed and the key (or id) that created it, so a test suite that gives each file
 * its own key sees the same ids and addresses on every run, however the files interleave.
 */
export function createAccounts(deps: {
  store: Store
  clock: Clock
  fixtures: Fixtures
  seed: string
  /** Runs on every freshly seeded (or reset) account: `--webhook-url` adds its endpoint here. */
  onSeeded?: (state: AccountState) => void
}): Accounts {
  const { store, clock, fixtures, seed } = deps
  let createdByControl = 0
  let generation = 0

  function seedAccount(id: string, origin: string, whitelistEnforced = false): AccountState {
    const rng = createRng(seed, 'account', origin)
    const now = clock.nowIso()
    const state: AccountState = {
      account: { id, created_at: now, whitelist_enforced: whitelistEnforced },
      rng,
      wallets: new Map(),
      payments: new PaymentIndex(),
      payouts: new Map(),
      whitelist: new Map(),
      webhooks: new Map(),
      idempotency: new Map(),
      postings: new PostingsLog(),
    }
    const addWallet = ({ balance, ...wallet }: Omit<WalletRecord, 'id' | 'address' | 'created_at' | 'updated_at' | 'status' | 'available' | 'locked'> & { balance: bigint }) => {
      const id = newId('wal', rng)
      const record: WalletRecord = { ...wallet, id, address: generateAddress(wallet.network, rng), status: 'active', available: 0n, locked: 0n, created_at: now, updated_at: now }
      state.wallets.set(id, record)
      openBalance(state, record, balance, clock.now())
    }
    for (const seedWallet of fixtures.accounts.institutional_wallets) {
      addWallet({
        type: 'institutional',
        name: `Treasury ${seedWallet.currency} on ${titleCase(seedWallet.network)}`,
        currency: seedWallet.currency,
        network: seedWallet.network,
        metadata: {},
        balance: toBaseUnits(seedWallet.balance, decimals(seedWallet.network, seedWallet.currency)),
      })
    }
    faker.seed(rng.uint32())
    for (const seedWallet of fixtures.accounts.user_wallets) {
      const person = faker.person.fullName()
      addWallet({
        type: 'user',
        name: `${person} (${seedWallet.currency})`,
        currency: seedWallet.currency,
        network: seedWallet.network,
        metadata: { external_user_id: `user_${faker.string.alphanumeric({ length: 10, casing: 'lower' })}` },
        balance: toBaseUnits(seedWallet.balance, decimals(seedWallet.network, seedWallet.currency)),
      })
    }
    deps.onSeeded?.(state)
    // The fixtures' wallets keep their ids; what the account creates later does not repeat an earlier generation's.
    if (generation > 0) state.rng = restoreRng(forkRngState(rng.state(), 'generation', generation))
    return state
  }

  function register(state: AccountState): AccountState {
    store.accounts.set(state.account.id, state)
    return state
  }

  function addKey(key: KeyRecord): KeyRecord {
    store.keys.set(key.key, key)
    return key
  }

  const defaults = fixtures.accounts.default_account
  return {
    ensureDefault() {
      const existing = store.accounts.get(defaults.id)
      if (existing) return existing
      return store.update(() => {
        const state = register(seedAccount(defaults.id, defaults.id))
        for (const key of defaults.keys) {
          addKey({ key: key.key, account_id: defaults.id, type: key.type, scopes: key.type === 'secret' ? ['*'] : (key.scopes ?? []), allowed_ips: key.allowed_ips })
        }
        return state
      })
    },
    forNewSecretKey(key) {
      return store.update(() => {
        const id = newId('acct', createRng(seed, 'account-id', key))
        const state = store.accounts.get(id) ?? register(seedAccount(id, key))
        addKey({ key, account_id: id, type: 'secret', scopes: ['*'], allowed_ips: [] })
        return state
      })
    },
    createKey({ accountId, type, scopes, allowedIps }) {
      return store.update(() => {
        const origin = `control-${++createdByControl}-${store.keys.size}`
        const keyRng = createRng(seed, 'key', origin)
        const account = accountId ? store.accounts.get(accountId)! : register(seedAccount(newId('acct', keyRng), origin))
        const prefix = type === 'secret' ? 'sk_test_' : 'rk_test_'
        return addKey({
          key: prefix + keyRng.base62(24),
          account_id: account.account.id,
          type,
          scopes: type === 'secret' ? ['*'] : scopes,
          allowed_ips: allowedIps,
        })
      })
    },
    reset(accountId) {
      return store.update(() => {
        const origin = accountId === defaults.id ? defaults.id : firstKeyOf(accountId) ?? accountId
        return register(seedAccount(accountId, origin))
      })
    },
    get: (accountId) => store.accounts.get(accountId),
    newIdGeneration: () => ++generation,
  }

  function firstKeyOf(accountId: string): string | undefined {
    for (const key of store.keys.values()) if (key.account_id === accountId && key.type === 'secret') return key.key
    return undefined
  }
}

const titleCase = (network: Network) => network[0]!.toUpperCase() + network.slice(1)

function decimals(network: Network, currency: string): number {
  const value = ASSETS[network][currency]
  if (value === undefined) throw new Error(`fixtures: ${currency} is not an asset of ${network}`)
  return value
}

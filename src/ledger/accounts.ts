import { ASSETS, type Network } from '../model/networks.js'
import type { Clock } from '../clock.js'
import type { Fixtures } from '../fixtures.js'
import { newId } from '../ids.js'
import { toBaseUnits } from '../money.js'
import { createRng, forkRngState, lazyRng, restoreRng } from '../rng.js'
import { OrderIndex } from '../store/order-index.js'
import { PaymentIndex } from '../store/payment-index.js'
import { SettlementIndex } from '../store/settlement-index.js'
import { PostingsLog } from '../store/postings-log.js'
import type { KeyRecord, KeyType, Metadata, Scope, SigningAlgorithm, WalletRecord, WalletType, WebhookEndpointRecord } from '../model/records.js'
import { createSigningKey } from '../key-material.js'
import type { AccountState } from '../store/account-state.js'
import { put } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { openBalance } from './balances.js'
import { seededPeople } from './seeded-people.js'
import { seededDraws } from './seeded-wallets.js'

export interface Accounts {
  /** Creates the fixtures' default account and its keys, unless the store has it already. */
  ensureDefault(): AccountState
  /** Open auth: the account behind a well-formed `sk_test_` key, provisioned on first use. */
  forNewSecretKey(key: string): AccountState
  /**
   * Control API: a new key, on an existing account or on a freshly seeded one; with `signing`, one
   * that must sign its requests (a generated Ed25519 private key comes back once, as `private_key`,
   * and is not stored).
   */
  createKey(options: { accountId?: string; type: KeyType; scopes: Array<Scope | '*'>; allowedIps: string[]; signing?: { alg: SigningAlgorithm; publicKey?: string } }): KeyRecord & { private_key?: string }
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
  /**
   * Where the ids an account creates (after its seeded wallets) and the keys the control API makes
   * come from: the seed, or a seed of this start alone (config.ts `idsVaryAcrossStarts`).
   */
  idSeed: string
  /** Asked for every freshly seeded (or reset) account: `--webhook-url` adds its endpoint here. */
  configuredEndpoint?: (state: AccountState) => WebhookEndpointRecord | undefined
}): Accounts {
  const { store, clock, fixtures, seed, idSeed } = deps
  let createdByControl = 0
  let generation = 0

  const institutionalWallets = fixtures.accounts.institutional_wallets
  const userWallets = fixtures.accounts.user_wallets
  const networksOf = (wallets: ReadonlyArray<{ network: Network }>) => wallets.map((wallet) => wallet.network)

  function seedAccount(id: string, origin: string, whitelistEnforced = false): AccountState {
    const draws = seededDraws(seed, origin, networksOf(institutionalWallets), networksOf(userWallets))
    const rng = restoreRng(draws.state)
    const now = clock.nowIso()
    // A new tenant is built whole here and stored with one change ('tenant'), not record by record.
    const wallets = new Map<string, WalletRecord>()
    const webhooks = new Map<string, WebhookEndpointRecord>()
    const state: AccountState = {
      account: { id, created_at: now, whitelist_enforced: whitelistEnforced },
      rng,
      wallets,
      payments: new PaymentIndex(),
      orders: new OrderIndex(),
      payouts: new Map(),
      settlements: new SettlementIndex(),
      whitelist: new Map(),
      webhooks,
      idempotency: new Map(),
      quotes: new Map(),
      postings: new PostingsLog(),
    }
    let drawn = 0
    // A record written as one literal, its keys in the order the records have always had (a data
    // file's bytes): the rest and spread copies it was made with, and the argument object, were a
    // third of a start's seeding allocation (issue 33, round 9).
    const addWallet = (type: WalletType, name: string, seedWallet: Fixtures['accounts']['user_wallets'][number], metadata: Metadata) => {
      const balance = toBaseUnits(seedWallet.balance, decimals(seedWallet.network, seedWallet.currency))
      const id = draws.ids[drawn]!
      const record: WalletRecord = {
        type,
        name,
        currency: seedWallet.currency,
        network: seedWallet.network,
        metadata,
        id,
        address: draws.addresses[drawn++]!,
        status: 'active',
        available: 0n,
        locked: 0n,
        created_at: now,
        updated_at: now,
      }
      state.wallets.set(id, record)
      openBalance(state, record, balance, clock.now())
    }
    for (const seedWallet of institutionalWallets) {
      addWallet('institutional', `Treasury ${seedWallet.currency} on ${titleCase(seedWallet.network)}`, seedWallet, {})
    }
    const people = seededPeople(draws.peopleSeed, userWallets.length)
    for (const [position, seedWallet] of userWallets.entries()) {
      const person = people[position]!
      addWallet('user', `${person.name} (${seedWallet.currency})`, seedWallet, { external_user_id: `user_${person.userId}` })
    }
    const endpoint = deps.configuredEndpoint?.(state)
    if (endpoint) webhooks.set(endpoint.id, endpoint)
    // The fixtures' wallets keep their ids; what the account creates later does not repeat an earlier
    // generation's, nor (with a seed of this start) an earlier start's. Forked on the generator's first
    // use (the fork is a SHA-256 that allocated 12 KB in a cold start, before its first answer, where
    // the default account draws nothing: issue 33, round 9), from the position seeding left.
    if (idSeed !== seed || generation > 0) {
      const seeded = state.rng.state()
      const forkGeneration = generation
      const lazy = lazyRng(() => {
        let forked = seeded
        if (idSeed !== seed) forked = forkRngState(forked, 'start', idSeed)
        if (forkGeneration > 0) forked = forkRngState(forked, 'generation', forkGeneration)
        const rng = restoreRng(forked)
        // Later draws go to the generator itself, unless the account has another by now (a data
        // file's, restored as it loads): a caller that kept this one still reaches its own.
        if (state.rng === lazy) state.rng = rng
        return rng
      })
      state.rng = lazy
    }
    return state
  }

  const tenant = (state: AccountState) => put('tenant', undefined, state.account.id, state)
  const keyChange = (key: KeyRecord) => put('key', undefined, key.key, key)

  const defaults = fixtures.accounts.default_account
  return {
    ensureDefault() {
      const existing = store.accounts.get(defaults.id)
      if (existing) return existing
      const state = seedAccount(defaults.id, defaults.id)
      const keys = defaults.keys.map((key): KeyRecord => ({ key: key.key, account_id: defaults.id, type: key.type, scopes: key.type === 'secret' ? ['*'] : (key.scopes ?? []), allowed_ips: key.allowed_ips }))
      store.apply([tenant(state), ...keys.map(keyChange)])
      return state
    },
    forNewSecretKey(key) {
      const id = newId('acct', createRng(seed, 'account-id', key))
      const existing = store.accounts.get(id)
      const state = existing ?? seedAccount(id, key)
      store.apply([...(existing ? [] : [tenant(state)]), keyChange({ key, account_id: id, type: 'secret', scopes: ['*'], allowed_ips: [] })])
      return state
    },
    createKey({ accountId, type, scopes, allowedIps, signing }) {
      const origin = `control-${++createdByControl}-${store.keys.size}`
      const keyRng = createRng(idSeed, 'key', origin)
      const created = accountId ? undefined : seedAccount(newId('acct', keyRng), origin)
      const prefix = type === 'secret' ? 'sk_test_' : 'rk_test_'
      const key: KeyRecord = {
        key: prefix + keyRng.base62(24),
        account_id: accountId ?? created!.account.id,
        type,
        scopes: type === 'secret' ? ['*'] : scopes,
        allowed_ips: allowedIps,
      }
      // Drawn after the key, from the key's own generator: keys made before signing existed keep their values.
      const material = signing && createSigningKey(signing.alg, keyRng, signing.publicKey)
      if (material) key.signing = material.record
      store.apply([...(created ? [tenant(created)] : []), keyChange(key)])
      return material?.privateKey === undefined ? key : { ...key, private_key: material.privateKey }
    },
    reset(accountId) {
      const origin = accountId === defaults.id ? defaults.id : firstKeyOf(accountId) ?? accountId
      const state = seedAccount(accountId, origin)
      store.apply([tenant(state)])
      return state
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

import { ConfigError, seedOf, type Config } from '../config.js'
import { presentWallet } from '../ledger/present.js'
import { silentLogger } from '../logger.js'
import { createSandbox } from '../sandbox.js'
import type { AccountState } from '../store/account-state.js'

/**
 * What `wallet-sandbox fixtures` prints: the default account (and the accounts that the given
 * `sk_test_` keys would get in open auth) with keys and wallets, exactly as a server started with
 * the same seed and fixtures seeds them. A manual clock at `--clock-start` keeps it deterministic.
 */
export async function describeFixtures(config: Config, apiKeys: readonly string[] = []) {
  const malformed = apiKeys.filter((key) => !/^sk_test_[A-Za-z0-9_]{8,}$/.test(key))
  if (malformed.length > 0) throw new ConfigError(`not sandbox secret keys (sk_test_ followed by at least 8 letters, digits or underscores): ${malformed.join(', ')}`)
  const sandbox = await createSandbox({ ...config, clock: 'manual', dataFile: undefined, quiet: true }, { logger: silentLogger })
  try {
    const accounts = [sandbox.accounts.ensureDefault(), ...apiKeys.map((key) => sandbox.store.keys.has(key) ? sandbox.accounts.get(sandbox.store.keys.get(key)!.account_id)! : sandbox.accounts.forNewSecretKey(key))]
    return {
      seed: seedOf(config),
      accounts: [...new Set(accounts)].map((state) => describeAccount(state, sandbox.store.keys.values())),
    }
  } finally {
    await sandbox.close()
  }
}

function describeAccount(state: AccountState, keys: Iterable<{ key: string; account_id: string; type: string; scopes: readonly string[]; allowed_ips: readonly string[] }>) {
  const { id, whitelist_enforced } = state.account
  return {
    id,
    whitelist_enforced,
    keys: [...keys].filter((key) => key.account_id === id).map(({ key, type, scopes, allowed_ips }) => ({ key, type, scopes, allowed_ips })),
    wallets: [...state.wallets.values()].map(presentWallet),
  }
}

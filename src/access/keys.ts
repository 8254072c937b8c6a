import { BlockList, isIPv4, isIPv6 } from 'node:net'
import { ApiError } from '../errors.js'
import type { Accounts } from '../ledger/accounts.js'
import type { KeyRecord, Scope } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import type { Store } from '../store/store.js'

const SECRET_KEY = /^sk_test_[A-Za-z0-9_]{8,}$/
const RESTRICTED_KEY = /^rk_test_[A-Za-z0-9_]{8,}$/

export interface Authenticated {
  account: AccountState
  key: KeyRecord
}

/**
 * The last well-formed header and its key. A client sends the same header request after request:
 * the same text answers the same key, and the same string of it, whose hash the key table's
 * look-up has already computed. The pattern, its match and a fresh key string for each request were
 * 1,970 instructions of a header read and looked up (callgrind, issue 33, round 9).
 */
let lastHeader: string | null = null
let lastKey = ''

/** Pulls the key out of `Authorization: Bearer <key>`. */
export function bearerKey(header: string | undefined): string {
  if (header === lastHeader) return lastKey
  if (header === undefined || header === '') {
    throw new ApiError('api_key_missing', 'No API key provided. Send it as Authorization: Bearer sk_test_….')
  }
  const match = /^Bearer +(\S+)\s*$/i.exec(header)
  if (!match) throw new ApiError('api_key_invalid', 'The Authorization header must be "Bearer <API key>", for example Authorization: Bearer sk_test_….')
  lastHeader = header
  lastKey = match[1]!
  return lastKey
}

/**
 * Resolves a key to its account (CONTRACT.md section 1). In open mode a well-formed secret key
 * that was never seen provisions a fresh seeded account.
 */
export function resolveKey(key: string, deps: { store: Store; accounts: Accounts; mode: 'open' | 'strict' }): Authenticated {
  if (key.startsWith('sk_live_')) {
    throw new ApiError('live_key_in_sandbox', 'This is a live key (sk_live_…); the sandbox accepts only test keys. Use an sk_test_ key.')
  }
  let record = deps.store.keys.get(key)
  if (!record && deps.mode === 'open' && SECRET_KEY.test(key)) {
    deps.accounts.forNewSecretKey(key)
    record = deps.store.keys.get(key)
  }
  const account = record && deps.store.accounts.get(record.account_id)
  if (!record || !account) {
    const hint = SECRET_KEY.test(key) || RESTRICTED_KEY.test(key)
      ? 'this key is not known to the sandbox' + (deps.mode === 'strict' ? ' (strict auth accepts only keys from the fixtures or POST /_sandbox/keys)' : '')
      : 'sandbox keys look like sk_test_ or rk_test_ followed by at least 8 letters, digits or underscores'
    throw new ApiError('api_key_invalid', `Invalid API key: ${hint}.`)
  }
  return { account, key: record }
}

/** A `:write` scope includes its `:read`; `*` is everything. */
export function assertScope(key: KeyRecord, scope: Scope | undefined): void {
  if (!scope || key.scopes.includes('*') || key.scopes.includes(scope)) return
  if (scope.endsWith(':read') && key.scopes.includes(scope.replace(':read', ':write') as Scope)) return
  throw new ApiError('insufficient_permissions', `This restricted key lacks the scope ${scope}; create a key with it via POST /_sandbox/keys.`)
}

const blockLists = new WeakMap<KeyRecord, BlockList>()

export function assertIpAllowed(key: KeyRecord, ip: string): void {
  if (key.allowed_ips.length === 0) return
  let list = blockLists.get(key)
  if (!list) {
    list = new BlockList()
    for (const entry of key.allowed_ips) addEntry(list, entry)
    blockLists.set(key, list)
  }
  const family = isIPv4(ip) ? 'ipv4' : 'ipv6'
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1]
  if (list.check(ip, family) || (mapped !== undefined && list.check(mapped, 'ipv4'))) return
  throw new ApiError('ip_not_allowed', `Requests from ${ip} are not allowed for this key; its allowed_ips are ${key.allowed_ips.join(', ')}.`)
}

function addEntry(list: BlockList, entry: string): void {
  const [address = '', prefix] = entry.split('/')
  const family = isIPv6(address) ? 'ipv6' : 'ipv4'
  if (prefix === undefined) list.addAddress(address, family)
  else list.addSubnet(address, Number(prefix), family)
}

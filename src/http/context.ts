import type { Clock } from '../clock.js'
import type { Config } from '../config.js'
import type { Accounts } from '../ledger/accounts.js'
import type { SandboxControl } from '../control/sandbox-control.js'
import type { Fixtures } from '../fixtures.js'
import type { Services } from '../services.js'
import type { KeyRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import type { Store } from '../store/store.js'

/** What every handler can reach. */
export interface AppDeps {
  config: Config
  clock: Clock
  store: Store
  accounts: Accounts
  services: Services
  control: SandboxControl
  fixtures: Fixtures
  /** When this sandbox was created (wall clock, ms): its uptime, and what tells a restart apart from a lost connection. */
  startedAtMs: number
}

export interface RequestContext {
  deps: AppDeps
  requestId: string
  /** Set on `/v1` routes that need a key. */
  account: AccountState
  key: KeyRecord
  ip: string
  /** Resolves when the connection of this request closes (its answer sent, or the client gone): a long poll stops waiting. */
  closed(): Promise<void>
  /** A control call about one account: its request id comes from that account's generator, as its `/v1` requests' do. */
  belongsTo(accountId: string): void
}

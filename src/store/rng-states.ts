import type { RngState } from '../rng.js'
import type { ChangeSet } from './changes.js'
import type { AccountState } from './account-state.js'

/** The generator positions of the accounts a change set touched, journaled with it so ids are never reused. */
export function rngStatesOf(accounts: ReadonlyMap<string, AccountState>, changes: ChangeSet): Record<string, RngState> {
  const states: Record<string, RngState> = {}
  for (const change of changes) {
    const id = change.op === 'replace' ? undefined : (change.account ?? (change.op === 'put' && change.kind === 'tenant' ? change.id : undefined))
    const account = id === undefined ? undefined : accounts.get(id)
    if (account) states[id!] = account.rng.state()
  }
  return states
}

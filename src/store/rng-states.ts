import type { RngState } from '../rng.js'
import type { ChangeSet } from './changes.js'
import type { AccountState } from './account-state.js'

/**
 * The generator positions to journal with each change set, so that ids are never reused after a
 * restart: those of the accounts the set touched whose generator moved since their position was
 * last journaled. Most change sets draw no id or random value (a payment's later steps), and their
 * lines then carry none; a replay leaves such an account's generator where the lines before it, or
 * the snapshot, put it. Each journal starts afresh (`restart`): its first line for an account
 * carries the position.
 *
 * Ids drawn after an account's last change (the events it published, the request ids of reads)
 * are in no change set: a clean stop journals those positions last (`moved`), so that the next
 * start draws on from where this one stopped, not from ids already handed out.
 */
export function createRngJournal() {
  const written = new Map<string, string>()
  return {
    statesOf(accounts: ReadonlyMap<string, AccountState>, changes: ChangeSet): Record<string, RngState> {
      const states: Record<string, RngState> = {}
      for (const change of changes) {
        const id = change.op === 'replace' ? undefined : (change.account ?? (change.op === 'put' && change.kind === 'tenant' ? change.id : undefined))
        const account = id === undefined ? undefined : accounts.get(id)
        if (!account) continue
        const state = account.rng.state()
        const key = state.join()
        if (written.get(id!) === key) continue
        written.set(id!, key)
        states[id!] = state
      }
      return states
    },
    /** Every account whose generator moved since its position was last journaled (what a clean stop journals last). */
    moved(accounts: ReadonlyMap<string, AccountState>): Record<string, RngState> {
      const states: Record<string, RngState> = {}
      for (const [id, account] of accounts) {
        const state = account.rng.state()
        if (written.get(id) === state.join()) continue
        written.set(id, state.join())
        states[id] = state
      }
      return states
    },
    restart(): void {
      written.clear()
    },
  }
}

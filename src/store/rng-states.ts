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
const same = (a: RngState | undefined, b: RngState) => a !== undefined && a[0] === b[0] && a[1] === b[1] && a[2] === b[2] && a[3] === b[3]

export function createRngJournal() {
  const written = new Map<string, RngState>()
  return {
    statesOf(accounts: ReadonlyMap<string, AccountState>, changes: ChangeSet): Record<string, RngState> {
      const states: Record<string, RngState> = {}
      // A set's changes are nearly always one account's: its position is looked at once, not per change.
      let previous: string | undefined
      for (const change of changes) {
        const id = change.op === 'replace' ? undefined : (change.account ?? (change.op === 'put' && change.kind === 'tenant' ? change.id : undefined))
        if (id !== undefined && id === previous) continue
        previous = id
        const account = id === undefined ? undefined : accounts.get(id)
        if (!account) continue
        const state = account.rng.state()
        if (same(written.get(id!), state)) continue
        written.set(id!, state)
        states[id!] = state
      }
      return states
    },
    /** Every account whose generator moved since its position was last journaled (what a clean stop journals last). */
    moved(accounts: ReadonlyMap<string, AccountState>): Record<string, RngState> {
      const states: Record<string, RngState> = {}
      for (const [id, account] of accounts) {
        const state = account.rng.state()
        if (same(written.get(id), state)) continue
        written.set(id, state)
        states[id] = state
      }
      return states
    },
    restart(): void {
      written.clear()
    },
  }
}

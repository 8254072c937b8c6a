import type { Clock } from '../clock.js'
import { put } from '../store/changes.js'
import type { Store } from '../store/store.js'

/** A clock as `GET /_sandbox/clock` answers it: the sandbox's, or one account's. */
export interface ClockReading {
  mode: Clock['mode']
  now: string
  offset_ms: number
  account_id: string | null
}

/**
 * The clock control (CONTRACT.md section 24): an advance of the whole sandbox or of one account,
 * and each account's offset kept in its record, so that the data file, snapshots and a restart
 * keep an account's time where its tests left it.
 */
export function createAccountClocks(deps: { store: Store; clock: Clock }) {
  const { store, clock } = deps

  /** The offset the clock holds for an account, into its record (only when it changed). */
  function save(accountId: string): void {
    const state = store.accounts.get(accountId)
    const offset = clock.offsetMs(accountId)
    if (!state || (state.account.clock_offset_ms ?? 0) === offset) return
    store.apply([put('account', accountId, accountId, { ...state.account, clock_offset_ms: offset })])
  }

  return {
    read: (accountId?: string): ClockReading => ({
      mode: clock.mode,
      now: clock.nowIso(accountId),
      offset_ms: clock.offsetMs(accountId),
      account_id: accountId ?? null,
    }),

    /** Everything of the sandbox (without an account) or of one account that falls due, in time order. */
    async advance(ms: number, accountId?: string): Promise<ClockReading> {
      await clock.advance(ms, accountId)
      if (accountId !== undefined) save(accountId)
      return this.read(accountId)
    },

    /** The offsets the accounts' records keep, onto the clock: at start-up on a data file, and after a restore. */
    load(): void {
      for (const state of store.accounts.values()) {
        const offset = state.account.clock_offset_ms ?? 0
        if (offset !== clock.offsetMs(state.account.id)) clock.setNow(clock.now() + offset, state.account.id)
      }
    },

    /** Sets an account's time (its restore) and keeps its offset in its record. */
    set(accountId: string, ms: number): void {
      clock.setNow(ms, accountId)
      save(accountId)
    },
  }
}

export type AccountClocks = ReturnType<typeof createAccountClocks>

import type { Clock } from '../clock.js'
import { ApiError } from '../errors.js'
import type { Bus } from '../events/bus.js'
import type { EventLog } from '../events/event-log.js'
import type { WebhookEngine } from '../events/webhooks.js'
import type { Accounts } from '../ledger/accounts.js'
import type { OutcomeRules } from '../lifecycle/outcome-rules.js'
import type { Screening } from '../lifecycle/screening.js'
import type { SandboxEvent } from '../model/events.js'
import { forkRngState, type RngState } from '../rng.js'
import type { EventType } from '../model/events.js'
import type { Snapshot } from '../schemas/snapshot.js'
import { put, remove } from '../store/changes.js'
import { accountFromData, accountToData } from '../store/data.js'
import type { Store } from '../store/store.js'
import type { FaultRules } from './fault-rules.js'
import type { PricePins } from './price-pins.js'

/**
 * One account's snapshot and restore (CONTRACT.md section 24): everything the account has (its
 * keys, records, postings, idempotent answers, its own rules, pins and screening entries, its events
 * and deliveries, its clock and id generators) as one document, and that document back in place of
 * the account alone, so that a test sharing its sandbox with others restores without touching them.
 * The document is a whole snapshot's format holding one account, so the data file's schema checks it.
 */
export function createAccountSnapshots(deps: {
  store: Store
  clock: Clock
  bus: Bus
  accounts: Accounts
  events: Pick<EventLog, 'exportAccount' | 'importAccount'>
  deliveries: Pick<WebhookEngine, 'exportAccount' | 'importAccount'>
  rules: OutcomeRules
  faults: FaultRules
  screening: Screening
  pins: PricePins
  /** Drops what is held for the account (timers, observers' state), as a reset does. */
  forget: (accountId: string) => void
}) {
  const { store, clock, bus, accounts, rules, faults, screening, pins } = deps

  return {
    take(accountId: string): Snapshot {
      const state = store.accounts.get(accountId)!
      return {
        version: 1,
        account_id: accountId,
        taken_at: clock.nowIso(accountId),
        accounts: [accountToData(state)],
        keys: [...store.keys.values()].filter((key) => key.account_id === accountId).map((key) => ({ ...key, scopes: [...key.scopes], allowed_ips: [...key.allowed_ips] })),
        control: {
          outcome_rules: structuredClone([...rules.list(accountId)]),
          faults: structuredClone([...faults.list(accountId)]),
          screening_flagged: screening.ofAccount(accountId),
          price_pins: pins.list(accountId).map((pin) => ({ ...pin })),
        },
        events: deps.events.exportAccount(accountId) as unknown as NonNullable<Snapshot['events']>,
        deliveries: deps.deliveries.exportAccount(accountId),
      }
    },

    /**
     * Replaces the snapshot's account (already validated: it holds that account alone) and nothing
     * else: every other account, the sandbox clock and the rules of every account stay. Its clock is
     * set to the snapshot's time; its generators are forked with a new generation, as a whole
     * restore forks every account's, so new ids repeat neither the snapshot's nor any other.
     */
    restore(snapshot: Snapshot): void {
      const accountId = snapshot.account_id!
      const data = snapshot.accounts[0]!
      for (const [index, key] of snapshot.keys.entries()) {
        const holder = store.keys.get(key.key)?.account_id
        if (holder !== undefined && holder !== accountId) {
          throw new ApiError('parameter_invalid', `The key ${key.key.slice(0, 8)}… of this snapshot belongs to account ${holder} here; an account's snapshot restores into a sandbox where its keys are its own.`, { param: `keys[${index}].key` })
        }
      }
      const takenAt = snapshot.taken_at === undefined ? clock.now(accountId) : Date.parse(snapshot.taken_at)
      const offset = takenAt - clock.now()
      deps.forget(accountId)
      const generation = accounts.newIdGeneration()
      const state = accountFromData({
        ...data,
        account: { ...data.account, clock_offset_ms: offset },
        rng_state: forkRngState(data.rng_state as RngState, 'generation', generation),
      })
      const restoredKeys = new Set(snapshot.keys.map((key) => key.key))
      const goneKeys = [...store.keys.values()].filter((key) => key.account_id === accountId && !restoredKeys.has(key.key))
      const { outcome_rules = [], faults: faultList = [], screening_flagged = [], price_pins = [] } = snapshot.control
      store.apply([
        put('tenant', undefined, accountId, state),
        ...goneKeys.map((key) => remove('key', undefined, key.key)),
        ...snapshot.keys.map((key) => put('key', undefined, key.key, { ...key, account_id: accountId })),
        rules.replaceAccount(accountId, outcome_rules),
        faults.replaceAccount(accountId, faultList),
        screening.replaceAccount(accountId, screening_flagged.map((entry) => entry.slice(entry.indexOf('/') + 1))),
        pins.replaceAccount(accountId, price_pins),
      ])
      clock.setNow(takenAt, accountId)
      deps.events.importAccount(accountId, (snapshot.events ?? []) as unknown as SandboxEvent[])
      deps.deliveries.importAccount(accountId, (snapshot.deliveries ?? []).map((delivery) => ({ ...delivery, event_type: delivery.event_type as EventType })))
      bus.emit('state.restored', accountId)
    },
  }
}

export type AccountSnapshots = ReturnType<typeof createAccountSnapshots>

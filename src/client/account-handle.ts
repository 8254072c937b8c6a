import { requestAssertions, type RequestExpectationOptions } from './request-expectation.js'
import type { AccountScope, EventFilter, EventMatch, SandboxClock, SandboxEvent, SandboxEventPage, SandboxRequest, SandboxRequestExpectation, SandboxRequestExpectationResult, SandboxResetResult, SandboxRestoreResult, SandboxSnapshot } from './control-types.js'

/** The control calls an account handle makes (the control client's). */
interface AccountControl {
  clock(scope?: AccountScope): Promise<SandboxClock>
  advanceClock(ms: number, scope?: AccountScope): Promise<SandboxClock>
  snapshot(scope?: AccountScope): Promise<SandboxSnapshot>
  restore(snapshot: SandboxSnapshot): Promise<SandboxRestoreResult>
  reset(options?: { api_key?: string }): Promise<SandboxResetResult>
  events(filter?: EventFilter): Promise<SandboxEventPage>
  waitForEvent(match: EventMatch, options?: { timeoutMs?: number }): Promise<SandboxEvent>
  expectRequest(expectation: SandboxRequestExpectation): Promise<SandboxRequestExpectationResult>
}

/** An expectation on the handle's own account. */
export type AccountRequestExpectation = Omit<SandboxRequestExpectation, 'api_key' | 'account_id'>

/**
 * One account of a sandbox that tests may share (CONTRACT.md section 24): its key, and the control
 * calls that touch this account alone. Its clock, snapshot and restore leave every other account,
 * and the sandbox clock, as they are; the sandbox-wide forms stay on the control client.
 */
export interface SandboxAccount {
  /** The account's secret key: what the code under test sends as `Authorization: Bearer …`. */
  readonly apiKey: string
  readonly accountId: string
  /** This account's clock: the sandbox clock plus its own offset. */
  clock(): Promise<SandboxClock>
  /** Moves this account's clock alone, running what falls due of it (settlement, retries, expiries, order ticks) in time order. */
  advanceClock(ms: number): Promise<SandboxClock>
  /** This account's whole state; `restore` it to bring this account back while others go on. */
  snapshot(): Promise<SandboxSnapshot>
  restore(snapshot: SandboxSnapshot): Promise<SandboxRestoreResult>
  /** Back to the fixtures, on the sandbox clock, without rules of its own; its keys stay valid. */
  reset(): Promise<SandboxResetResult>
  events(filter?: Omit<EventFilter, 'api_key' | 'account_id'>): Promise<SandboxEventPage>
  /** The first event of this account that `match` selects, already logged or still to come. */
  waitForEvent(match?: Omit<EventMatch, 'api_key' | 'account_id'>, options?: { timeoutMs?: number }): Promise<SandboxEvent>
  /** Asserts what the code under test sent with this account's key (as the sandbox handle's expectRequest). */
  expectRequest(expectation: AccountRequestExpectation, options?: RequestExpectationOptions): Promise<SandboxRequest[]>
  /** Asserts that no matching request came with this account's key, over `withinMs` of real time. */
  expectNoRequest(expectation: Omit<AccountRequestExpectation, 'count' | 'exactly'>, options?: RequestExpectationOptions): Promise<void>
}

export function createAccountHandle(control: AccountControl, account: { apiKey: string; accountId: string }): SandboxAccount {
  const scope = { api_key: account.apiKey }
  return {
    apiKey: account.apiKey,
    accountId: account.accountId,
    clock: () => control.clock(scope),
    advanceClock: (ms) => control.advanceClock(ms, scope),
    snapshot: () => control.snapshot(scope),
    restore(snapshot) {
      if (snapshot.account_id !== account.accountId) {
        return Promise.reject(new TypeError(`restore() of account ${account.accountId} takes that account's snapshot (account.snapshot()); this one is ${snapshot.account_id === undefined ? 'a whole sandbox’s' : `account ${snapshot.account_id}'s`}.`))
      }
      return control.restore(snapshot)
    },
    reset: () => control.reset(scope),
    events: (filter = {}) => control.events({ ...filter, ...scope }),
    waitForEvent: (match = {}, options) => control.waitForEvent({ ...match, ...scope }, options),
    ...requestAssertions(control.expectRequest, (expectation: AccountRequestExpectation) => ({ ...expectation, ...scope })),
  }
}

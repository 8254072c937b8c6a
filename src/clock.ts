import { Heap } from './heap.js'
import { isoOf } from './date-text.js'

/**
 * The sandbox clock, each account's clock, and the one scheduler. Every timestamp the sandbox writes
 * and every timed thing it does (settlement, webhook retries, idempotency expiry, price ticks) goes
 * through here, so that a manual clock makes the whole sandbox stand still until an advance moves it.
 * This is the only module that reads system time.
 *
 * An account's time is the sandbox time plus the account's own offset (0 when the account is made),
 * so tests that share one sandbox each move their own account's time without touching the others'.
 * A timer runs on the time of the account it belongs to (none: sandbox time, the price ticker's).
 * Advancing one account is the sandbox-wide advance restricted to that account's timers: its offset
 * grows, the sandbox time and every other account stand where they were.
 */
export type ClockMode = 'real' | 'manual'

export interface TimerHandle {
  readonly id: number
  /** When the timer is due, on its account's clock. */
  readonly dueAt: number
}

type Task = () => void | Promise<void>

export interface Clock {
  readonly mode: ClockMode
  /** The time of `account` (without one: sandbox time), ms since the epoch. */
  now(account?: string): number
  nowIso(account?: string): string
  /** How far the sandbox clock has been advanced by hand; with an account, how far that account is ahead of the sandbox. */
  offsetMs(account?: string): number
  /** Runs `task` once `delayMs` have passed on the account's clock (without one: the sandbox's). */
  schedule(delayMs: number, task: Task, account?: string): TimerHandle
  cancel(handle: TimerHandle | undefined): void
  /** Cancels every timer of one account (its reset), or every timer of every account. */
  cancelAccount(account?: string): void
  /**
   * Work started off the scheduler that an advance must see finish before it runs the next timer
   * (a webhook delivery waiting on its receiver), so that what the work schedules when it ends (a
   * retry) falls due inside the same advance, at its own time. Real-time wake-ups do not wait for it.
   * With an account, only advances that run that account's timers wait for it.
   */
  track(work: Promise<unknown>, account?: string): void
  /**
   * While a sandbox-wide advance or wake-up runs due timers: the sandbox time they are run up to;
   * undefined otherwise. Lets the price ticker send only the last ticks of a long advance.
   */
  dueUntil(): number | undefined
  /**
   * Moves the clock forward, running everything that falls due in time order: every account's
   * timers without an account, that account's alone with one (its offset grows by `ms`).
   */
  advance(ms: number, account?: string): Promise<void>
  /**
   * Sets the time (a restore puts the clock where its snapshot was taken, also backwards): without
   * an account the sandbox time (a manual clock stands at `ms`; a real clock gets the offset that
   * makes its now `ms`), every account keeping its offset; with one, that account's time. Pending
   * timers keep their remaining delay.
   */
  setNow(ms: number, account?: string): void
  /** Drops an account's offset and timers: it runs on sandbox time again (a reset, or an account that is gone). */
  forgetAccount(account: string): void
  /** Accounts whose clock is not the sandbox's, with their offsets. */
  accountOffsets(): ReadonlyMap<string, number>
  pendingTimers(): number
  /** Stops the real-time wake-up; nothing runs afterwards. */
  close(): void
}

export interface ClockOptions {
  mode: ClockMode
  /** Manual mode: where time starts (ms since the epoch). */
  start: number
  onTaskError?: (error: unknown) => void
}

/**
 * Monotonic milliseconds from an arbitrary origin, for durations and the rate limiter (which runs on
 * real time even with a manual clock). process.hrtime, not performance.now(): node:perf_hooks and its
 * eight internal modules were loaded by every start (about 1.5 % of a cold start, issue 33) for it.
 */
export const monotonicMs = (): number => {
  const [seconds, nanoseconds] = process.hrtime()
  return seconds * 1e3 + nanoseconds / 1e6
}
/** Real wall-clock seconds, for `webhook-timestamp` (receivers check it against their own clock). */
export const wallClockSeconds = (): number => Math.floor(Date.now() / 1000)
/** Real wall-clock ms, for durations in logs only. */
export const wallClockMs = (): number => Date.now()

interface Timer extends TimerHandle {
  /** Mutable inside the clock: `setNow` moves every pending timer with the time. */
  dueAt: number
  task: Task
  queue: Queue
  heapIndex: number
}

/** One account's timers (key '' for sandbox timers), in the heap of queues by its earliest. */
interface Queue {
  key: string
  timers: Heap<Timer>
  heapIndex: number
}

const SANDBOX = ''

// Timers due at the same time run in the order they were scheduled.
const timerBefore = (a: Timer, b: Timer) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.id < b.id)

export function createClock(options: ClockOptions): Clock {
  let nextId = 1
  let sandboxOffset = 0
  const offsets = new Map<string, number>()
  const offsetOf = (key: string) => offsets.get(key) ?? 0
  /** A queue's earliest timer on sandbox time: the order in which a sandbox-wide advance takes them. */
  const dueOnSandbox = (queue: Queue) => queue.timers.peek()!.dueAt - offsetOf(queue.key)
  const queues = new Map<string, Queue>()
  const earliest = new Heap<Queue>((a, b) => {
    const dueA = dueOnSandbox(a)
    const dueB = dueOnSandbox(b)
    return dueA < dueB || (dueA === dueB && a.timers.peek()!.id < b.timers.peek()!.id)
  })
  /** While a sandbox-wide run runs a task, sandbox time reads as that task's due time. */
  let pinnedSandbox: number | undefined
  /** While an account's own advance runs a task, that account's time reads as the task's due time. */
  const pinnedAccounts = new Map<string, number>()
  let runningUntil: number | undefined
  let wakeUp: NodeJS.Timeout | undefined
  let closed = false
  const tracked = new Map<string, Set<Promise<void>>>()
  const runs = createRunLocks()

  const base = () => (options.mode === 'manual' ? options.start : Date.now())
  const sandboxNow = () => pinnedSandbox ?? base() + sandboxOffset
  const now = (account?: string): number => {
    if (account === undefined) return sandboxNow()
    return pinnedAccounts.get(account) ?? sandboxNow() + offsetOf(account)
  }
  // One request stamps several records with the same instant (a manual clock: every one of them).
  let lastIsoMs = NaN
  let lastIso = ''
  const nowIso = (account?: string) => {
    const ms = now(account)
    if (ms !== lastIsoMs) {
      lastIso = isoOf(ms)
      lastIsoMs = ms
    }
    return lastIso
  }

  /** After a queue's earliest timer or its account's offset changed: its place among the queues. */
  function reposition(queue: Queue): void {
    if (queue.timers.size === 0) earliest.remove(queue)
    else earliest.update(queue)
  }

  function queueOf(key: string): Queue {
    let queue = queues.get(key)
    if (!queue) queues.set(key, (queue = { key, timers: new Heap(timerBefore), heapIndex: -1 }))
    return queue
  }

  function take(queue: Queue): Timer {
    const timer = queue.timers.pop()!
    reposition(queue)
    return timer
  }

  function runTask(timer: Timer): Promise<void> | void {
    try {
      const result = timer.task()
      if (result instanceof Promise) return result.catch((error) => options.onTaskError?.(error))
    } catch (error) {
      options.onTaskError?.(error)
    }
  }

  /** Waits until no tracked work (of one account, or of any) is in flight, including work that finishing work started. */
  async function settleTracked(key?: string): Promise<void> {
    for (;;) {
      const pending = key === undefined ? [...tracked.values()].flatMap((set) => [...set]) : [...(tracked.get(key) ?? [])]
      if (pending.length === 0) return
      await Promise.all(pending)
    }
  }

  /**
   * Runs every timer due at or before sandbox time `until`, across accounts in sandbox-time order,
   * pinning time to each one's due time. An advance (`waitForTracked`) lets tracked work finish
   * before each next timer, so a timer that work schedules is in its heap, in its place, before the
   * loop looks at it.
   */
  async function runDue(until: number, waitForTracked: boolean): Promise<void> {
    if (waitForTracked) await settleTracked()
    runningUntil = until
    while (earliest.size > 0 && dueOnSandbox(earliest.peek()!) <= until && !closed) {
      const queue = earliest.peek()!
      const due = dueOnSandbox(queue)
      const timer = take(queue)
      pinnedSandbox = Math.max(due, pinnedSandbox ?? -Infinity)
      const result = runTask(timer)
      if (result) await result
      if (waitForTracked) await settleTracked()
    }
    pinnedSandbox = undefined
    runningUntil = undefined
  }

  /** The same for one account's timers up to its time `until`; the sandbox and other accounts stand still. */
  async function runAccountDue(account: string, until: number): Promise<void> {
    await settleTracked(account)
    const queue = queueOf(account)
    while (queue.timers.size > 0 && queue.timers.peek()!.dueAt <= until && !closed) {
      const timer = take(queue)
      pinnedAccounts.set(account, Math.max(timer.dueAt, pinnedAccounts.get(account) ?? -Infinity))
      const result = runTask(timer)
      if (result) await result
      await settleTracked(account)
    }
    pinnedAccounts.delete(account)
  }

  function setOffset(account: string, offset: number): void {
    if (offset === 0) offsets.delete(account)
    else offsets.set(account, offset)
    const queue = queues.get(account)
    if (queue) reposition(queue)
  }

  function rearm(): void {
    if (options.mode !== 'real' || closed) return
    if (wakeUp) clearTimeout(wakeUp)
    wakeUp = undefined
    const first = earliest.peek()
    if (!first) return
    const delay = Math.min(Math.max(dueOnSandbox(first) - sandboxNow(), 0), 2 ** 31 - 1)
    wakeUp = setTimeout(() => void runs.sandboxWide(() => runDue(sandboxNow(), false)).then(rearm), delay)
    wakeUp.unref?.()
  }

  return {
    mode: options.mode,
    now,
    nowIso,
    offsetMs: (account) => (account === undefined ? sandboxOffset : offsetOf(account)),
    schedule(delayMs, task, account) {
      const queue = queueOf(account ?? SANDBOX)
      const timer: Timer = { id: nextId++, dueAt: now(account) + Math.max(0, delayMs), task, queue, heapIndex: -1 }
      queue.timers.push(timer)
      if (queue.timers.peek() === timer) {
        reposition(queue)
        if (earliest.peek() === queue) rearm()
      }
      return timer
    },
    cancel(handle) {
      if (!handle) return
      const timer = handle as Timer
      if (timer.queue?.timers.remove(timer)) reposition(timer.queue)
    },
    cancelAccount(account) {
      const cancelled = account === undefined ? [...queues.values()] : [queues.get(account)].filter((queue) => queue !== undefined)
      for (const queue of cancelled) {
        queue.timers.clear()
        earliest.remove(queue)
      }
      rearm()
    },
    advance(ms, account) {
      if (account === undefined) {
        return runs
          .sandboxWide(async () => {
            const target = sandboxNow() + ms
            await runDue(target, true)
            sandboxOffset += target - sandboxNow()
          })
          .then(rearm)
      }
      return runs
        .forAccount(account, async () => {
          const target = now(account) + ms
          await runAccountDue(account, target)
          setOffset(account, offsetOf(account) + target - now(account))
        })
        .then(rearm)
    },
    dueUntil: () => runningUntil,
    track(work, account) {
      const key = account ?? SANDBOX
      let set = tracked.get(key)
      if (!set) tracked.set(key, (set = new Set()))
      const settled: Promise<void> = work.then(
        () => void untrack(key, settled),
        () => void untrack(key, settled),
      )
      set.add(settled)
    },
    setNow(ms, account) {
      const delta = ms - now(account)
      if (account === undefined) sandboxOffset += delta
      else setOffset(account, offsetOf(account) + delta)
      // Each timer keeps its remaining delay on its own clock, which moved by `delta`.
      const moved = account === undefined ? [...queues.values()] : [queues.get(account)].filter((queue) => queue !== undefined)
      for (const queue of moved) for (const timer of queue.timers.values()) timer.dueAt += delta
      rearm()
    },
    forgetAccount(account) {
      const queue = queues.get(account)
      if (queue) {
        queue.timers.clear()
        earliest.remove(queue)
        queues.delete(account)
      }
      offsets.delete(account)
      rearm()
    },
    accountOffsets: () => offsets,
    pendingTimers: () => earliest.values().reduce((sum, queue) => sum + queue.timers.size, 0),
    close() {
      closed = true
      if (wakeUp) clearTimeout(wakeUp)
      for (const queue of queues.values()) queue.timers.clear()
      earliest.clear()
    },
  }

  function untrack(key: string, work: Promise<void>): void {
    const set = tracked.get(key)
    if (!set) return
    set.delete(work)
    if (set.size === 0) tracked.delete(key)
  }
}

/**
 * Advances and wake-ups run one at a time, except that advances of different accounts may overlap
 * (each waits on its own receivers, not on another test's): a sandbox-wide run waits for every run
 * before it, an account's run for the sandbox-wide runs and that account's runs before it.
 */
function createRunLocks() {
  let sandboxWide: Promise<void> = Promise.resolve()
  const accounts = new Map<string, Promise<void>>()
  return {
    sandboxWide(work: () => Promise<void>): Promise<void> {
      const run = Promise.all([sandboxWide, ...accounts.values()]).then(work)
      sandboxWide = run.catch(() => {})
      return run
    },
    forAccount(account: string, work: () => Promise<void>): Promise<void> {
      const run = Promise.all([sandboxWide, accounts.get(account)]).then(work)
      const settled = run.catch(() => {})
      accounts.set(account, settled)
      void settled.then(() => {
        if (accounts.get(account) === settled) accounts.delete(account)
      })
      return run
    },
  }
}

import { performance } from 'node:perf_hooks'

/**
 * The sandbox clock and its scheduler. Every timestamp the sandbox writes and every timed thing it
 * does (settlement, webhook retries, idempotency expiry, price ticks) goes through here, so that a
 * manual clock makes the whole sandbox stand still until `advance()` moves it. This is the only
 * module that reads system time.
 */
export type ClockMode = 'real' | 'manual'

export interface TimerHandle {
  readonly id: number
  readonly dueAt: number
}

type Task = () => void | Promise<void>

interface Timer extends TimerHandle {
  /** Mutable inside the clock: `setNow` moves every pending timer with the time. */
  dueAt: number
  task: Task
  /** Lets a reset cancel one account's timers. */
  tag: string | undefined
}

export interface Clock {
  readonly mode: ClockMode
  /** Sandbox time, ms since the epoch. */
  now(): number
  nowIso(): string
  /** How far the clock has been advanced by hand. */
  offsetMs(): number
  /** Runs `task` once `delayMs` of sandbox time have passed. */
  schedule(delayMs: number, task: Task, tag?: string): TimerHandle
  cancel(handle: TimerHandle | undefined): void
  /** Cancels every timer (no tag: all timers). */
  cancelTagged(tag?: string): void
  /**
   * Work started off the scheduler that an advance must see finish before it runs the next timer
   * (a webhook delivery waiting on its receiver), so that what the work schedules when it ends (a
   * retry) falls due inside the same advance, at its own time. Real-time wake-ups do not wait for it.
   */
  track(work: Promise<unknown>): void
  /**
   * While due timers run: the time they are run up to (the end of an advance, or now for a real-time
   * wake-up); undefined otherwise. Lets the price ticker send only the last ticks of a long advance.
   */
  dueUntil(): number | undefined
  /** Moves the clock forward, running everything that falls due in time order. */
  advance(ms: number): Promise<void>
  /**
   * Sets sandbox time (a restore puts the clock where its snapshot was taken, also backwards): a
   * manual clock stands at `ms`; a real clock gets the offset that makes its now `ms`. Pending
   * timers keep their remaining delay.
   */
  setNow(ms: number): void
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

/** Monotonic milliseconds for the rate limiter, which runs on real time even with a manual clock. */
export const monotonicMs = (): number => performance.now()
/** Real wall-clock seconds, for `webhook-timestamp` (receivers check it against their own clock). */
export const wallClockSeconds = (): number => Math.floor(Date.now() / 1000)
/** Real wall-clock ms, for durations in logs only. */
export const wallClockMs = (): number => Date.now()

export function createClock(options: ClockOptions): Clock {
  const heap: Timer[] = []
  let nextId = 1
  let offset = 0
  /** While `advance` runs a task, time reads as that task's due time. */
  let pinned: number | undefined
  let runningUntil: number | undefined
  let wakeUp: NodeJS.Timeout | undefined
  let closed = false
  let running: Promise<void> = Promise.resolve()
  const tracked = new Set<Promise<void>>()

  const base = () => (options.mode === 'manual' ? options.start : Date.now())
  const now = () => pinned ?? base() + offset
  // One request stamps several records with the same instant (a manual clock: every one of them).
  let lastIsoMs = NaN
  let lastIso = ''
  const nowIso = () => {
    const ms = now()
    if (ms !== lastIsoMs) {
      lastIso = new Date(ms).toISOString()
      lastIsoMs = ms
    }
    return lastIso
  }

  function runTask(timer: Timer): Promise<void> | void {
    try {
      const result = timer.task()
      if (result instanceof Promise) return result.catch((error) => options.onTaskError?.(error))
    } catch (error) {
      options.onTaskError?.(error)
    }
  }

  /** Waits until no tracked work is in flight, including work that finishing work started. */
  async function settleTracked(): Promise<void> {
    while (tracked.size > 0) await Promise.all(tracked)
  }

  /**
   * Runs every timer due at or before `until`, oldest first, pinning time to each one's due time.
   * An advance (`waitForTracked`) lets tracked work finish before each next timer, so a timer that
   * work schedules is in the heap, in its place, before the loop looks at it.
   */
  async function runDue(until: number, waitForTracked: boolean): Promise<void> {
    if (waitForTracked) await settleTracked()
    runningUntil = until
    while (heap.length > 0 && heap[0]!.dueAt <= until && !closed) {
      const timer = pop(heap)
      pinned = Math.max(timer.dueAt, pinned ?? -Infinity)
      const result = runTask(timer)
      if (result) await result
      if (waitForTracked) await settleTracked()
    }
    pinned = undefined
    runningUntil = undefined
  }

  function rearm(): void {
    if (options.mode !== 'real' || closed) return
    if (wakeUp) clearTimeout(wakeUp)
    wakeUp = undefined
    if (heap.length === 0) return
    const delay = Math.min(Math.max(heap[0]!.dueAt - now(), 0), 2 ** 31 - 1)
    wakeUp = setTimeout(() => {
      running = running.then(() => runDue(now(), false)).then(rearm)
    }, delay)
    wakeUp.unref?.()
  }

  return {
    mode: options.mode,
    now,
    nowIso,
    offsetMs: () => offset,
    schedule(delayMs, task, tag) {
      const timer: Timer = { id: nextId++, dueAt: now() + Math.max(0, delayMs), task, tag }
      push(heap, timer)
      if (heap[0] === timer) rearm()
      return timer
    },
    cancel(handle) {
      if (!handle) return
      const index = heap.findIndex((timer) => timer.id === handle.id)
      if (index !== -1) removeAt(heap, index)
    },
    cancelTagged(tag) {
      const keep = heap.filter((timer) => tag !== undefined && timer.tag !== tag)
      heap.length = 0
      for (const timer of keep) push(heap, timer)
      rearm()
    },
    advance(ms) {
      running = running.then(async () => {
        const target = now() + ms
        await runDue(target, true)
        offset += target - now()
      })
      return running.then(rearm)
    },
    dueUntil: () => runningUntil,
    track(work) {
      const settled: Promise<void> = work.then(
        () => void tracked.delete(settled),
        () => void tracked.delete(settled),
      )
      tracked.add(settled)
    },
    setNow(ms) {
      const delta = ms - (base() + offset)
      offset += delta
      for (const timer of heap) timer.dueAt += delta
      rearm()
    },
    pendingTimers: () => heap.length,
    close() {
      closed = true
      if (wakeUp) clearTimeout(wakeUp)
      heap.length = 0
    },
  }
}

// A binary min-heap on (dueAt, id): timers due at the same time run in the order they were scheduled.
const before = (a: Timer, b: Timer) => a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.id < b.id)

function push(heap: Timer[], timer: Timer): void {
  heap.push(timer)
  siftUp(heap, heap.length - 1)
}

function pop(heap: Timer[]): Timer {
  const top = heap[0]!
  removeAt(heap, 0)
  return top
}

function removeAt(heap: Timer[], index: number): void {
  const last = heap.pop()!
  if (index === heap.length) return
  heap[index] = last
  siftUp(heap, index)
  siftDown(heap, index)
}

function siftUp(heap: Timer[], index: number): void {
  while (index > 0) {
    const parent = (index - 1) >> 1
    if (!before(heap[index]!, heap[parent]!)) return
    ;[heap[index], heap[parent]] = [heap[parent]!, heap[index]!]
    index = parent
  }
}

function siftDown(heap: Timer[], index: number): void {
  for (;;) {
    const left = 2 * index + 1
    const right = left + 1
    let smallest = index
    if (left < heap.length && before(heap[left]!, heap[smallest]!)) smallest = left
    if (right < heap.length && before(heap[right]!, heap[smallest]!)) smallest = right
    if (smallest === index) return
    ;[heap[index], heap[smallest]] = [heap[smallest]!, heap[index]!]
    index = smallest
  }
}

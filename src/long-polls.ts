/**
 * Long polls (`wait=` on the events and requests routes, a waiting expectation): each resolves once
 * what it waits for happens, after `ms` of real time (a manual clock stands still, and what is awaited
 * comes from outside it), or when its client goes away. `notify(...args)` wakes those whose test
 * takes `args`.
 */
export function createLongPolls<Args extends unknown[]>() {
  const waiting = new Set<{ test: (...args: Args) => boolean; wake: () => void }>()
  return {
    get size(): number {
      return waiting.size
    },
    wait(test: (...args: Args) => boolean, ms: number, abandoned: Promise<void>): Promise<void> {
      return new Promise((resolve) => {
        const poll = { test, wake: () => finish() }
        const timer = setTimeout(() => finish(), ms)
        const finish = () => {
          clearTimeout(timer)
          waiting.delete(poll)
          resolve()
        }
        waiting.add(poll)
        void abandoned.then(finish)
      })
    },
    notify(...args: Args): void {
      for (const poll of waiting) if (poll.test(...args)) poll.wake()
    },
    /** Every poll answers now (the sandbox is closing). */
    wakeAll(): void {
      for (const poll of [...waiting]) poll.wake()
    },
  }
}

/** The position of the first of `size` entries, in ascending `seqAt` order, whose seq is after `seq`: `size` when none is. */
export function firstAfter(size: number, seqAt: (i: number) => number, seq: number): number {
  let low = 0
  let high = size
  while (low < high) {
    const middle = (low + high) >>> 1
    if (seqAt(middle) <= seq) low = middle + 1
    else high = middle
  }
  return low
}

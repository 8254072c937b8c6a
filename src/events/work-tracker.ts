/** Counts work in progress, so that `idle()` can resolve once none is left (tests wait on it). */
export function createWorkTracker() {
  let busy = 0
  let waiters: Array<() => void> = []
  return {
    start(): void {
      busy++
    },
    end(): void {
      busy--
      if (busy > 0) return
      const resolved = waiters
      waiters = []
      for (const resolve of resolved) resolve()
    },
    idle(): Promise<void> {
      if (busy === 0) return Promise.resolve()
      return new Promise((resolve) => waiters.push(resolve))
    },
  }
}

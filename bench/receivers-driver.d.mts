// Types of receivers-driver.mjs, for test/reliability/hostile-receivers.test.ts.

export const RECEIVER_KINDS: string[]

export interface HostileReceiversReport {
  events: number
  endpoints: number
  attempts: number
  delivered: number
  lost: number
  duplicated: number
  /** 2xx answers that came after the timeout (logged as failures, so retried): at least once, not duplicates. */
  lateAnswersRedelivered: number
  beyondSchedule: number
  logMismatches: number
  problems: string[]
}

export function runHostileReceivers(options: {
  base: string
  events: number
  key?: string
  schedule?: number[]
  stepMs?: number
  during?: (phase: 'quiet' | 'misbehaving' | 'recovered', stopped: () => boolean) => Promise<void>
}): Promise<HostileReceiversReport>

/**
 * The webhook retry schedule: delays (ms) between attempts, each counted from the end of the
 * previous attempt. The first attempt goes out at once; `[]` means that one attempt is all there is.
 * `--webhook-retries 5s,30s,2m,10m,1h` (the default) is parsed by config.ts.
 */

/** The delay before the next retry once `retriesDone` retries have gone out, or undefined when there is none left. */
export function nextRetryDelay(schedule: readonly number[], retriesDone: number): number | undefined {
  return retriesDone >= 0 && retriesDone < schedule.length ? schedule[retriesDone] : undefined
}

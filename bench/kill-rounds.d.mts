export interface KillRoundsResult {
  rounds: number
  acknowledged: number
  /** Acknowledged payments missing after the restart, with the ms between their 201 and the kill. */
  lost: Array<{ id: string; round: number; ageMs: number }>
  problems: string[]
}
export function runKillRounds(options: {
  dataFile: string
  durability: 'strict' | 'batched'
  rounds: number
  concurrency?: number
  trafficMs?: [number, number]
  log?: (line: string) => void
  /** Problems with one account of the snapshot taken after each restart (its data as `GET /_sandbox/snapshot` answers). */
  checkAccount?: (account: unknown) => string[]
}): Promise<KillRoundsResult>

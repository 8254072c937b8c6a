// Types of scale-api.mjs, for test/e2e/scale-api.test.ts.
export interface SequentialPosts {
  p50: number
  p99: number
  max: number
  /** The server's CPU time per request (µs), from /proc; undefined where there is none. */
  cpuUs: number | undefined
}

export interface ApiScaleResult {
  /** Payments the measured account made, and what its list says it holds. */
  payments: number
  listed: number
  /** Payments the process holds (the warm-up account's included): what the RSS is divided by. */
  held: number
  rss: number
  rssPerPayment: number
  createRate: number
  /** The peer's POSTs (it holds a thousand), and the grown sandbox's, taken in turns. */
  first: SequentialPosts
  last: SequentialPosts
  /** Payments the peer's account held at the end. */
  peerPayments: number
  compacting: boolean
}

export const PEER_SIZE: number
export function rssOf(pid: number): number
export function runApiScale(options: { dataFile: string; payments: number; sequential?: number; warmup?: number; concurrency?: number; log?: (line: string) => void }): Promise<ApiScaleResult>

// Types of loop-driver.mjs, for test/e2e/loop.test.ts.
import type { Agent } from 'node:http'

export const LOOP_RECIPIENT: string
export const LIFECYCLE_TYPES: string[]

export interface LoopReceiver {
  endpointUrl(client: number): string
  setSecret(client: number, secret: string): void
  lifecycleDone(paymentId: string, timeoutMs?: number): Promise<void>
  check(paymentIds: string[]): string[]
  received(): number
  close(): Promise<void>
}

export interface LoopClient {
  base: string
  key: string
  agent: Agent
  source: string
  receiver: LoopReceiver
}

/** `keepAliveTimeoutMs`: how long the receiver keeps an idle connection (node's default, 5 s, when not given). */
export function startLoopReceiver(options?: { keepAliveTimeoutMs?: number }): Promise<LoopReceiver>
export function prepareLoopClient(base: string, receiver: LoopReceiver, client: number, key: string): Promise<LoopClient>
export function runLoop(clients: LoopClient[], count: number): Promise<string[]>
export function closeLoopClients(clients: LoopClient[]): void

import type { Clock } from '../clock.js'
import type { DeliveryRecord } from './delivery-log.js'

/**
 * First attempts to one endpoint go out one after the other in event order, so that a receiver
 * sees `created` before `succeeded`. One queue per endpoint, drained by one loop that the clock
 * tracks (an advance waits for what it started).
 */
export function createFirstAttempts(deps: { clock: Clock; send: (record: DeliveryRecord) => Promise<void>; done: () => void }) {
  const { clock, send, done } = deps
  /** Per endpoint, the deliveries whose first attempt has not finished yet, oldest first. */
  const queues = new Map<string, DeliveryRecord[]>()
  const keyOf = (record: DeliveryRecord) => `${record.account_id}/${record.endpoint_id}`

  async function drain(key: string, queue: DeliveryRecord[]): Promise<void> {
    // The event came from a request or a timer that is still running: let it answer first (a
    // client's next request overlaps with the delivery), and let events of the same turn join the queue.
    await new Promise<void>((resolve) => setImmediate(resolve))
    while (queue.length > 0) {
      await send(queue[0]!)
      queue.shift()
      done()
    }
    queues.delete(key)
  }

  return {
    add(record: DeliveryRecord): void {
      const key = keyOf(record)
      const queue = queues.get(key)
      if (queue) {
        queue.push(record)
        return
      }
      const fresh = [record]
      queues.set(key, fresh)
      clock.track(drain(key, fresh), record.account_id)
    },
    /** Whether the delivery's first attempt is still waiting in its queue. */
    has: (record: DeliveryRecord): boolean => queues.get(keyOf(record))?.includes(record) ?? false,
  }
}

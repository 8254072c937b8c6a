import type { Clock } from '../clock.js'
import { ApiError } from '../errors.js'
import type { OrderRecord, OrderStatus, WalletRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import type { Change } from '../store/changes.js'
import { release } from './balances.js'
import type { OrderCommit } from './order-commit.js'

const FINAL: ReadonlySet<OrderStatus> = new Set(['filled', 'cancelled', 'expired', 'rejected'])
export const isFinalOrder = (order: OrderRecord) => FINAL.has(order.status)

export function assertOpen(order: OrderRecord, action: string): void {
  if (isFinalOrder(order)) throw new ApiError('invalid_state_transition', `Order ${order.id} is ${order.status}, which is final; it cannot ${action}.`)
}

/** The end states of an open order other than `filled`: cancelled, expired, rejected (CONTRACT.md sections 15 and 19). */
export function createOrderEndings(deps: { clock: Clock; orderCommit: OrderCommit }) {
  const { clock } = deps
  const { commit, copyOf } = deps.orderCommit

  /** Ends an open order: what it still holds goes back to available. */
  function end(account: AccountState, order: OrderRecord, status: 'cancelled' | 'expired' | 'rejected', reason: string | null = null): OrderRecord {
    const now = clock.nowIso(account.account.id)
    const next: OrderRecord = { ...order, status, locked_units: 0n, updated_at: now, reject_reason: status === 'rejected' ? reason : order.reject_reason }
    const changes: Change[] = []
    const wallets: WalletRecord[] = []
    if (order.locked_units > 0n) {
      const payer = copyOf(account, order.side === 'buy' ? order.quote_wallet : order.base_wallet)
      release(account, payer, order.locked_units, { cause: 'order.released', ref: order.id, at: clock.now(account.account.id) }, changes)
      wallets.push(payer)
    }
    commit(account, next, `order.${status}`, wallets, changes)
    return account.orders.get(order.id)!
  }

  return {
    end,

    cancel(account: AccountState, order: OrderRecord): OrderRecord {
      assertOpen(order, 'be cancelled')
      return end(account, order, 'cancelled')
    },

    expire(account: AccountState, order: OrderRecord): OrderRecord {
      return end(account, order, 'expired')
    },

    /** Control `reject`: only an order without fills (CONTRACT.md section 19). */
    reject(account: AccountState, order: OrderRecord, reason: string | undefined): OrderRecord {
      assertOpen(order, 'be rejected')
      if (order.fills.length > 0) throw new ApiError('invalid_state_transition', `Order ${order.id} has fills already; only an order without fills can be rejected. Cancel it instead.`)
      return end(account, order, 'rejected', reason ?? 'Rejected by the sandbox (control call).')
    },
  }
}

import type { PaymentRecord, PaymentStatus } from '../model/records.js'
import { bucket, insertSorted, removeSorted } from './seq-lists.js'

export interface PaymentFilter {
  status?: PaymentStatus
  currency?: string
  recipient_id?: string
  source_wallet?: string
}

/**
 * One account's payments with an index per filter, so that a list with a million payments costs
 * what the page costs, not a scan. Immutable attributes (currency, recipient, source) index into
 * append-only arrays kept in creation order; status changes move a payment between sorted arrays.
 */
export class PaymentIndex {
  private readonly byId = new Map<string, PaymentRecord>()
  private readonly all: PaymentRecord[] = []
  private readonly byStatus = new Map<PaymentStatus, PaymentRecord[]>()
  private readonly byCurrency = new Map<string, PaymentRecord[]>()
  private readonly byRecipient = new Map<string, PaymentRecord[]>()
  private readonly bySource = new Map<string, PaymentRecord[]>()

  get size(): number {
    return this.all.length
  }

  nextSeq(): number {
    return this.all.length === 0 ? 1 : this.all[this.all.length - 1]!.seq + 1
  }

  get(id: string): PaymentRecord | undefined {
    return this.byId.get(id)
  }

  values(): readonly PaymentRecord[] {
    return this.all
  }

  add(payment: PaymentRecord): void {
    this.byId.set(payment.id, payment)
    this.all.push(payment)
    bucket(this.byCurrency, payment.currency).push(payment)
    bucket(this.byRecipient, recipientKey(payment.destination)).push(payment)
    bucket(this.bySource, payment.source).push(payment)
    insertSorted(bucket(this.byStatus, payment.status), payment)
  }

  /** Call after changing `payment.status` from `previous`. */
  statusChanged(payment: PaymentRecord, previous: PaymentStatus): void {
    if (previous === payment.status) return
    removeSorted(bucket(this.byStatus, previous), payment)
    insertSorted(bucket(this.byStatus, payment.status), payment)
  }

  /** Payments to or from a wallet that are not final yet. */
  hasOpenPayments(walletId: string): boolean {
    const open = (p: PaymentRecord) => p.status === 'pending' || p.status === 'processing'
    return (this.bySource.get(walletId) ?? []).some(open) || (this.byRecipient.get(walletId) ?? []).some(open)
  }

  /** Newest first. */
  list(filter: PaymentFilter, offset: number, limit: number): { items: PaymentRecord[]; total: number } {
    const candidates: PaymentRecord[][] = []
    if (filter.status) candidates.push(this.byStatus.get(filter.status) ?? [])
    if (filter.currency) candidates.push(this.byCurrency.get(filter.currency) ?? [])
    if (filter.recipient_id) candidates.push(this.byRecipient.get(recipientKey(filter.recipient_id)) ?? [])
    if (filter.source_wallet) candidates.push(this.bySource.get(filter.source_wallet) ?? [])
    if (candidates.length === 0) candidates.push(this.all)
    // Walk the smallest index and test the other filters on each payment.
    candidates.sort((a, b) => a.length - b.length)
    const [smallest] = candidates as [PaymentRecord[]]
    if (candidates.length === 1) {
      const end = Math.max(smallest.length - offset, 0)
      return { items: smallest.slice(Math.max(end - limit, 0), end).reverse(), total: smallest.length }
    }
    const items: PaymentRecord[] = []
    let total = 0
    for (let i = smallest.length - 1; i >= 0; i--) {
      const payment = smallest[i]!
      if (!matches(payment, filter)) continue
      if (total >= offset && items.length < limit) items.push(payment)
      total++
    }
    return { items, total }
  }
}

/** EVM addresses compare case-insensitively; wallet ids and other addresses as they are. */
export const recipientKey = (destination: string) =>
  destination.startsWith('0x') || destination.startsWith('0X') ? destination.toLowerCase() : destination

function matches(payment: PaymentRecord, filter: PaymentFilter): boolean {
  return (
    (!filter.status || payment.status === filter.status) &&
    (!filter.currency || payment.currency === filter.currency) &&
    (!filter.recipient_id || recipientKey(payment.destination) === recipientKey(filter.recipient_id)) &&
    (!filter.source_wallet || payment.source === filter.source_wallet)
  )
}

import type { PaymentRecord, WalletRecord } from '../model/records.js'

/**
 * A put of a wallet or a payment onto the stored record, field by field. A put updates the stored
 * record in place (what holds a reference sees the change), and every payment puts its source
 * wallet, every status change its payment: `Object.assign` onto an object that already has the
 * keys sets each one through the generic path, 0.5–0.6 µs for a wallet's twelve fields in a loop
 * (issue 33, round 6), where these stores cost a few nanoseconds. Every field of the record type,
 * none optional: test/unit/record-assign.test.ts checks that each field of real records is copied.
 */
export function assignWallet(target: WalletRecord, value: WalletRecord): void {
  target.id = value.id
  target.type = value.type
  target.name = value.name
  target.address = value.address
  target.currency = value.currency
  target.network = value.network
  target.status = value.status
  target.metadata = value.metadata
  target.created_at = value.created_at
  target.updated_at = value.updated_at
  target.available = value.available
  target.locked = value.locked
}

export function assignPayment(target: PaymentRecord, value: PaymentRecord): void {
  target.id = value.id
  target.seq = value.seq
  target.amount_units = value.amount_units
  target.amount = value.amount
  target.currency = value.currency
  target.network = value.network
  target.status = value.status
  target.source = value.source
  target.destination = value.destination
  target.destination_type = value.destination_type
  target.description = value.description
  target.metadata = value.metadata
  target.tx_hash = value.tx_hash
  target.failure_code = value.failure_code
  target.failure_message = value.failure_message
  target.payout_id = value.payout_id
  target.created_at = value.created_at
  target.updated_at = value.updated_at
  target.completed_at = value.completed_at
  target.plan = value.plan
}

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { chunkText, encodeColumn, readColumn } from '../../src/store/columns.js'
import { paymentChunk, paymentColumns, readPaymentChunk } from '../../src/store/payment-chunks.js'
import { PostingsLog } from '../../src/store/postings-log.js'
import { appendTransactionChunk, transactionChunk, transactionColumns } from '../../src/store/transaction-chunks.js'
import type { PaymentRecord } from '../../src/model/records.js'
import { payment } from '../helpers/store-records.js'

/** A chunk line as the file holds it: through JSON and back. */
const asRead = (chunk: unknown): unknown => JSON.parse(JSON.stringify(chunk))

describe('columns', () => {
  it('keep each value, with a dictionary when values repeat enough', () => {
    expect(encodeColumn(['a', 'b', 'c'])).toEqual(['a', 'b', 'c'])
    expect(encodeColumn(['a', 'b', 'a', 'a'])).toEqual({ values: ['a', 'b'], of: [0, 1, 0, 0] })
    expect(encodeColumn([{ x: 1 }, { x: 1 }, { x: 1 }], (value) => JSON.stringify(value))).toEqual({ values: [{ x: 1 }], of: [0, 0, 0] })
  })

  it.each([
    ['a list of another length', { status: ['a', 'b'] }, 'status: expected 3 values'],
    ['an index out of its values', { status: { values: ['a'], of: [0, 1, 0] } }, 'status.of[1]: expected the index of one of its 1 values'],
    ['an index that is not a whole number', { status: { values: ['a', 'b'], of: [0, 0.5, 1] } }, 'status.of[1]'],
    ['a dictionary with a key too many', { status: { values: ['a'], of: [0, 0, 0], extra: 1 } }, 'status: expected a list of values'],
  ])('refuse %s', (_name, chunk, message) => {
    expect(() => readColumn(chunk, 'status', 3)).toThrow(message)
  })
})

const LATER = '2026-01-02T00:00:00.000Z'

describe('payments in chunks', () => {
  const variant = fc.record({
    status: fc.constantFrom('pending' as const, 'processing' as const, 'completed' as const, 'failed' as const),
    source: fc.constantFrom('wal_a', 'wal_b', 'wal_c'),
    units: fc.bigInt({ min: 1n, max: 2n ** 80n }),
    description: fc.option(fc.string(), { nil: null }),
    metadata: fc.constantFrom<Record<string, string>>({}, { order: '42' }, { order: '43', team: 'x' }),
    later: fc.boolean(),
    plan: fc.option(fc.constantFrom({ outcome: 'completed' as const, failure_code: null, stage: null, decided_by: 'default' }), { nil: null }),
  })

  it('read back as the payments they were, from a line written whole or a column at a time (property)', () => {
    fc.assert(
      fc.property(fc.array(variant, { minLength: 1, maxLength: 40 }), (variants) => {
        const payments: PaymentRecord[] = variants.map((v, i) => ({
          ...payment(i + 1, v.source, v.units),
          status: v.status,
          description: v.description,
          metadata: v.metadata,
          plan: v.plan,
          ...(v.later ? { updated_at: LATER, completed_at: LATER, tx_hash: `0x${i}` } : {}),
        }))
        expect(readPaymentChunk(asRead(paymentChunk(payments)), payments.length)).toEqual(payments)
        expect([...chunkText(paymentColumns(payments))].join('')).toBe(JSON.stringify(paymentChunk(payments)))
      }),
    )
  })

  it('leave out the fields every payment holds at its default', () => {
    const chunk = paymentChunk([payment(1, 'wal_a'), payment(2, 'wal_a')])
    expect(Object.keys(chunk)).toEqual(['count', 'id', 'seq', 'amount_units', 'amount', 'currency', 'network', 'status', 'source', 'destination', 'destination_type', 'created_at'])
  })

  it.each([
    ['a status no payment has', (chunk: Record<string, unknown>) => (chunk.status = { values: ['pending', 'paid'], of: [0, 1] }), 'status[1]: Invalid option'],
    ['no id column', (chunk: Record<string, unknown>) => delete chunk.id, 'id: missing'],
    ['amounts that are not base units', (chunk: Record<string, unknown>) => (chunk.amount_units = ['1', '1.5']), 'amount_units[1]'],
    ['a count of none', (chunk: Record<string, unknown>) => (chunk.count = 0), 'count: expected the number of records'],
  ])('refuse a chunk with %s, naming where', (_name, damage, message) => {
    const chunk = asRead(paymentChunk([payment(1, 'wal_a'), payment(2, 'wal_b')])) as Record<string, unknown>
    damage(chunk)
    expect(() => readPaymentChunk(chunk, 2)).toThrow(message)
  })

  it('refuse a chunk of more payments than its section has left', () => {
    expect(() => readPaymentChunk(asRead(paymentChunk([payment(1, 'wal_a'), payment(2, 'wal_b')])), 1)).toThrow('more than the 1 its section has left')
  })
})

describe('transactions in chunks', () => {
  const transaction = fc.record({
    cause: fc.constantFrom('deposit' as const, 'payment.created' as const, 'payment.completed' as const),
    ref: fc.constantFrom('pay_1', 'pay_2', '0xsender', 'wal_ü'),
    at: fc.integer({ min: 0, max: 4_000_000_000_000 }),
    amounts: fc.array(fc.bigInt({ min: 1n, max: 2n ** 100n }), { minLength: 1, maxLength: 3 }),
  })

  it('append to a log the transactions they were, from a line written whole or from the log a column at a time (property)', () => {
    fc.assert(
      fc.property(fc.array(transaction, { minLength: 1, maxLength: 30 }), (transactions) => {
        const original = new PostingsLog()
        for (const tx of transactions) original.append(tx.cause, tx.ref, tx.at, tx.amounts.flatMap((amount, j) => [{ account: `wal_${j}:available`, amount: -amount }, { account: `wal_${j}:locked`, amount }]))
        const read = new PostingsLog()
        expect(appendTransactionChunk(read, asRead(transactionChunk([...original])), transactions.length)).toBe(transactions.length)
        expect([...read]).toEqual([...original])
        // Written from the log a column at a time, as a compaction does: the same line.
        expect([...chunkText(transactionColumns(transactions.length, original.fieldsOf(1, transactions.length)))].join('')).toBe(JSON.stringify(transactionChunk([...original])))
      }),
    )
  })

  it.each([
    ['an unknown cause', (chunk: Record<string, unknown>) => (chunk.cause = ['deposit', 'gift']), 'cause[1]: expected one of'],
    ['an amount of zero', (chunk: Record<string, unknown>) => (chunk.amount = ['-5', '5', '0', '0']), 'amount[2]: expected non-zero base units'],
    ['sizes that do not add up to its lines', (chunk: Record<string, unknown>) => (chunk.size = [2, 1]), 'account: expected 3 '],
    ['a date that is not one', (chunk: Record<string, unknown>) => (chunk.at = ['2026-01-01T00:00:00.000Z', 'yesterday']), 'at[1]: expected an ISO 8601 timestamp'],
  ])('refuse a chunk with %s, naming where, and append nothing', (_name, damage, message) => {
    const log = new PostingsLog()
    log.append('deposit', 'x', 0, [{ account: 'external:polygon:USDC', amount: -5n }, { account: 'wal_a:available', amount: 5n }])
    log.append('deposit', 'y', 1000, [{ account: 'external:polygon:USDC', amount: -5n }, { account: 'wal_a:available', amount: 5n }])
    const chunk = asRead(transactionChunk([...log])) as Record<string, unknown>
    damage(chunk)
    const read = new PostingsLog()
    expect(() => appendTransactionChunk(read, chunk, 2)).toThrow(message)
    expect(read.size).toBe(0)
  })
})

import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { TransactionLineSchema } from '../../src/schemas/data-file.js'
import { encodePayment } from '../../src/store/data.js'
import { expandPayment, shortPayment, transactionFromLine, transactionLine } from '../../src/store/short-forms.js'
import { isTransactionLine } from '../../src/store/plain-checks.js'
import { payment } from '../helpers/store-records.js'

const AT = '2026-01-01T00:00:00.000Z'
const LATER = '2026-01-02T00:00:00.000Z'

describe('a payment in short', () => {
  it('leaves out exactly the fields that hold their default', () => {
    const record = payment(1, 'wal_a')
    expect(Object.keys(shortPayment(record))).toEqual(['id', 'seq', 'amount_units', 'amount', 'currency', 'network', 'status', 'source', 'destination', 'destination_type', 'created_at'])
    const completed = { ...record, status: 'completed' as const, tx_hash: '0xabc', updated_at: LATER, completed_at: LATER, metadata: { order: '42' } }
    expect(shortPayment(completed)).toMatchObject({ tx_hash: '0xabc', updated_at: LATER, completed_at: LATER, metadata: { order: '42' } })
    expect(shortPayment(completed)).not.toHaveProperty('failure_code')
  })

  it('expands back to the full form, fields in one order (property)', () => {
    const optional = <T>(value: fc.Arbitrary<T>) => fc.option(value, { nil: null })
    fc.assert(
      fc.property(
        fc.record({
          description: optional(fc.string()),
          metadata: fc.dictionary(fc.string({ minLength: 1 }), fc.string(), { maxKeys: 2 }),
          tx_hash: optional(fc.string()),
          failure_code: optional(fc.string()),
          failure_message: optional(fc.string()),
          payout_id: optional(fc.string()),
          updated_at: fc.constantFrom(AT, LATER),
          completed_at: optional(fc.constant(LATER)),
          plan: optional(fc.constant({ outcome: 'completed' as const, failure_code: null, stage: null, decided_by: 'default' })),
        }),
        (fields) => {
          const record = { ...payment(7, 'wal_a'), ...fields }
          const full = encodePayment(record)
          const expanded = expandPayment(JSON.parse(JSON.stringify(shortPayment(record))))
          expect(expanded).toEqual(full)
          expect(Object.keys(expanded as object)).toEqual(Object.keys(full))
        },
      ),
    )
  })

  it('drops a key no payment has, and answers what is not an object as it is (for the schema to refuse)', () => {
    expect(expandPayment({ ...encodePayment(payment(1, 'wal_a')), nickname: 'x' })).not.toHaveProperty('nickname')
    for (const value of [null, 42, 'pay', [1, 2]]) expect(expandPayment(value)).toBe(value)
  })
})

describe('a transaction in short', () => {
  const data = { cause: 'payment.created' as const, ref: 'pay_1', at: AT, lines: [{ account: 'wal_a:available', amount: '-5' }, { account: 'wal_a:locked', amount: '5' }] }

  it('is a tuple that reads back as the object form', () => {
    expect(transactionLine(data)).toEqual(['payment.created', 'pay_1', AT, [['wal_a:available', '-5'], ['wal_a:locked', '5']]])
    expect(transactionFromLine(transactionLine(data))).toEqual(data)
  })

  it('passes the plain check exactly when it fits the schema (property)', () => {
    const near = fc.tuple(
      fc.constantFrom('payment.created', 'deposit', 'gift', 7),
      fc.constantFrom('pay_1', '', 3),
      fc.constantFrom(AT, 'yesterday', null),
      fc.oneof(
        fc.array(fc.tuple(fc.constantFrom('wal_a:available', 5), fc.constantFrom('5', '-5', '0', '05', '1.5', 5)), { maxLength: 3 }),
        fc.constantFrom([['wal_a:available', '5', 'x']], [{ account: 'wal_a:available', amount: '5' }], 'lines'),
      ),
    ).chain((line) => fc.constantFrom<unknown>(line, [...line, 'extra'], line.slice(0, 3)))
    fc.assert(
      fc.property(near, (value) => {
        expect(isTransactionLine(value)).toBe(TransactionLineSchema.safeParse(value).success)
      }),
      { numRuns: 500 },
    )
  })
})

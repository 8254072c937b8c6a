import { describe, expect, it } from 'vitest'
import { decodeJournalLine, decodeSnapshotLine } from '../../src/store/lines.js'

// Journal lines are checked by a plain test first and by the schema only when that fails
// (src/store/lines.ts). The plain test must let through exactly what the schema accepts: every
// line below that it wrongly passed would load damage instead of refusing it.

const ACCOUNT = 'acct_journal'
const posting = { cause: 'payment.created', ref: 'pay_1', at: '2026-01-01T00:00:00.000Z', lines: [{ account: 'wal_a:available', amount: '-5' }, { account: 'wal_a:locked', amount: '5' }] }
const wallet = {
  id: 'wal_a', type: 'institutional', name: 'Treasury', address: '0x52908400098527886E0F7030069857D2E4169EE7', currency: 'USDC', network: 'polygon', status: 'active',
  metadata: {}, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z', available: '95', locked: '5',
}
const valid = () => ({
  seq: 7,
  changes: [
    { append: 'postings', account: ACCOUNT, at: 3, value: structuredClone(posting) },
    { put: 'wallet', account: ACCOUNT, id: 'wal_a', value: structuredClone(wallet) },
  ],
  rng: { [ACCOUNT]: [1, 2, 3, 4] },
})

describe('decodeJournalLine', () => {
  it('decodes a plain line of puts and appends', () => {
    const decoded = decodeJournalLine(valid())
    expect(decoded.seq).toBe(7)
    expect(decoded.rng).toEqual({ [ACCOUNT]: [1, 2, 3, 4] })
    expect(decoded.changes[0]).toEqual({ op: 'append', log: 'postings', account: ACCOUNT, at: 3, value: posting })
    expect(decoded.changes[1]).toMatchObject({ op: 'put', kind: 'wallet', id: 'wal_a', value: { available: 95n, locked: 5n } })
  })

  it('decodes what only the schema takes: a delete, and a line without rng', () => {
    const line = { seq: 2, changes: [{ delete: 'webhook', account: ACCOUNT, id: 'we_1' }] }
    expect(decodeJournalLine(line)).toEqual({ seq: 2, changes: [{ op: 'delete', kind: 'webhook', account: ACCOUNT, id: 'we_1' }], rng: {} })
  })

  it('drops a key the wallet schema does not have, as the schema does', () => {
    const line = valid()
    line.changes[1]!.value = { ...wallet, nickname: 'hand-edited' } as never
    expect(decodeJournalLine(line).changes[1]).toMatchObject({ op: 'put', kind: 'wallet', value: { id: 'wal_a' } })
    expect((decodeJournalLine(line).changes[1] as { value: object }).value).not.toHaveProperty('nickname')
  })

  it('decodes a payment put (base units to a bigint) and drops a key the payment schema does not have', () => {
    const payment = {
      id: 'pay_1', seq: 1, amount_units: '5', amount: '0.000005', currency: 'USDC', network: 'polygon', status: 'pending', source: 'wal_a',
      destination: '0x52908400098527886E0F7030069857D2E4169EE7', destination_type: 'address', description: null, metadata: {}, tx_hash: null,
      failure_code: null, failure_message: null, payout_id: null, created_at: '2026-01-01T00:00:00.000Z', updated_at: '2026-01-01T00:00:00.000Z',
      completed_at: null, plan: null,
    }
    const line = { seq: 3, changes: [{ put: 'payment', account: ACCOUNT, id: 'pay_1', value: { ...payment, note: 'hand-edited' } }] }
    const value = (decodeJournalLine(line).changes[0] as { value: Record<string, unknown> }).value
    expect(value).toMatchObject({ id: 'pay_1', amount_units: 5n, status: 'pending' })
    expect(value).not.toHaveProperty('note')
    expect(() => decodeJournalLine({ ...line, changes: [{ ...line.changes[0]!, value: { ...payment, status: 'paid' } }] })).toThrow()
  })

  const damaged: Array<[string, (line: ReturnType<typeof valid>) => unknown]> = [
    ['a key the line does not have', (line) => ({ ...line, extra: 1 })],
    ['seq 0', (line) => ({ ...line, seq: 0 })],
    ['a fractional seq', (line) => ({ ...line, seq: 1.5 })],
    ['changes that are not a list', (line) => ({ ...line, changes: {} })],
    ['an rng state of three numbers', (line) => ({ ...line, rng: { [ACCOUNT]: [1, 2, 3] } })],
    ['an rng state that is not numbers', (line) => ({ ...line, rng: { [ACCOUNT]: ['1', 2, 3, 4] } })],
    ['a change with a key of another kind of change', (line) => ({ ...line, changes: [{ ...line.changes[1], at: 1 }] })],
    ['a change with an unknown key', (line) => ({ ...line, changes: [{ ...line.changes[1], extra: true }] })],
    ['a change with an unknown key in place of its account', (line) => ({ ...line, changes: [{ put: 'wallet', id: 'wal_a', value: wallet, extra: true }] })],
    ['a put of an unknown kind', (line) => ({ ...line, changes: [{ ...line.changes[1], put: 'coupon' }] })],
    ['a put without its id', (line) => ({ ...line, changes: [{ put: 'wallet', account: ACCOUNT, value: wallet }] })],
    ['an append at a negative position', (line) => ({ ...line, changes: [{ ...line.changes[0], at: -1 }] })],
    ['an account that is not a string', (line) => ({ ...line, changes: [{ ...line.changes[0], account: 5 }] })],
    ['a posting of zero', (line) => ({ ...line, changes: [{ ...line.changes[0], value: { ...posting, lines: [{ account: 'wal_a:available', amount: '0' }] } }] })],
    ['a posting with no lines', (line) => ({ ...line, changes: [{ ...line.changes[0], value: { ...posting, lines: [] } }] })],
    ['a posting of an unknown cause', (line) => ({ ...line, changes: [{ ...line.changes[0], value: { ...posting, cause: 'gift' } }] })],
    ['a posting dated never', (line) => ({ ...line, changes: [{ ...line.changes[0], value: { ...posting, at: 'yesterday' } }] })],
    ['a wallet put that does not fit its schema', (line) => ({ ...line, changes: [{ ...line.changes[1], value: { ...wallet, status: 'lost' } }] })],
    ['a patch of a kind that is not patched', (line) => ({ ...line, changes: [{ patch: 'webhook', account: ACCOUNT, id: 'we_1', value: { url: 'x' } }] })],
    ['a patch without its account', (line) => ({ ...line, changes: [{ patch: 'wallet', id: 'wal_a', value: { available: '1' } }] })],
    ['a patch whose fields are not an object', (line) => ({ ...line, changes: [{ patch: 'wallet', account: ACCOUNT, id: 'wal_a', value: ['1'] }] })],
    ['a patch with a key it does not have', (line) => ({ ...line, changes: [{ patch: 'wallet', account: ACCOUNT, id: 'wal_a', value: {}, at: 1 }] })],
  ]

  it('decodes a patch as it is, for the replay to apply to the record', () => {
    const patch = { patch: 'wallet', account: ACCOUNT, id: 'wal_a', value: { available: '90', updated_at: '2026-01-02T00:00:00.000Z' } }
    expect(decodeJournalLine({ seq: 9, changes: [structuredClone(patch)] }).changes).toEqual([patch])
  })

  it.each(damaged)('refuses %s', (_, damage) => {
    expect(() => decodeJournalLine(damage(valid()))).toThrow()
  })
})

describe('decodeSnapshotLine', () => {
  const append = { append: 'postings', account: ACCOUNT, at: 0, value: posting }

  it('decodes a plain append and a plain put', () => {
    expect(decodeSnapshotLine(structuredClone(append))).toEqual({ op: 'append', log: 'postings', account: ACCOUNT, at: 0, value: posting })
    expect(decodeSnapshotLine({ put: 'wallet', account: ACCOUNT, id: 'wal_a', value: structuredClone(wallet) })).toMatchObject({ op: 'put', kind: 'wallet', value: { locked: 5n } })
  })

  it.each([
    ['an append at a negative position', { ...append, at: -1 }],
    ['an append with a key it does not have', { ...append, id: 'x' }],
    ['a posting of zero', { ...append, value: { ...posting, lines: [{ account: 'wal_a:available', amount: '-0' }] } }],
    ['a put of an unknown kind', { put: 'coupon', account: ACCOUNT, id: 'c_1', value: {} }],
    ['a patch (journal lines only)', { patch: 'wallet', account: ACCOUNT, id: 'wal_a', value: { available: '1' } }],
  ])('refuses %s', (_, line) => {
    expect(() => decodeSnapshotLine(line)).toThrow()
  })
})

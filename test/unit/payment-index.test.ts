import { describe, expect, it } from 'vitest'
import { PaymentIndex, recipientKey, type PaymentFilter } from '../../src/store/payment-index.js'
import type { PaymentRecord, PaymentStatus } from '../../src/model/records.js'

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

function payment(seq: number, overrides: Partial<PaymentRecord> = {}): PaymentRecord {
  return {
    id: `pay_${String(seq).padStart(24, '0')}`,
    seq,
    amount_units: 1_000_000n,
    amount: '1.00',
    currency: 'USDC',
    network: 'polygon',
    status: 'pending',
    source: 'wal_a',
    destination: EVM,
    destination_type: 'address',
    description: null,
    metadata: {},
    tx_hash: null,
    failure_code: null,
    failure_message: null,
    payout_id: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    completed_at: null,
    plan: null,
    ...overrides,
  }
}

/** 12 payments with a spread of currencies, sources, recipients and statuses. */
function sampleIndex() {
  const index = new PaymentIndex()
  const records: PaymentRecord[] = []
  for (let seq = 1; seq <= 12; seq++) {
    const record = payment(seq, {
      currency: seq % 3 === 0 ? 'USDT' : 'USDC',
      source: seq % 2 === 0 ? 'wal_a' : 'wal_b',
      destination: seq % 4 === 0 ? 'wal_c' : EVM,
      destination_type: seq % 4 === 0 ? 'wallet' : 'address',
    })
    index.add(record)
    records.push(record)
  }
  return { index, records }
}

const ids = (list: PaymentRecord[]) => list.map((p) => p.seq)

/** The reference answer: a plain scan, newest first. */
function scan(records: PaymentRecord[], filter: PaymentFilter): number[] {
  return records
    .filter(
      (p) =>
        (!filter.status || p.status === filter.status) &&
        (!filter.currency || p.currency === filter.currency) &&
        (!filter.recipient_id || recipientKey(p.destination) === recipientKey(filter.recipient_id)) &&
        (!filter.source_wallet || p.source === filter.source_wallet),
    )
    .map((p) => p.seq)
    .reverse()
}

describe('PaymentIndex', () => {
  it('lists every payment newest first with the total', () => {
    const { index } = sampleIndex()
    const page = index.list({}, 0, 100)
    expect(ids(page.items)).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
    expect(page.total).toBe(12)
  })

  it('pages with offset and limit, newest first', () => {
    const { index } = sampleIndex()
    expect(ids(index.list({}, 0, 5).items)).toEqual([12, 11, 10, 9, 8])
    expect(ids(index.list({}, 5, 5).items)).toEqual([7, 6, 5, 4, 3])
    expect(ids(index.list({}, 10, 5).items)).toEqual([2, 1])
    expect(index.list({}, 12, 5)).toEqual({ items: [], total: 12 })
    expect(index.list({}, 1000, 5)).toEqual({ items: [], total: 12 })
  })

  const filters: Array<[string, PaymentFilter]> = [
    ['currency', { currency: 'USDT' }],
    ['source', { source_wallet: 'wal_a' }],
    ['recipient wallet', { recipient_id: 'wal_c' }],
    ['recipient address', { recipient_id: EVM }],
    ['recipient address in lower case', { recipient_id: EVM.toLowerCase() }],
    ['status', { status: 'pending' }],
    ['currency and source', { currency: 'USDC', source_wallet: 'wal_b' }],
    ['currency, source and recipient', { currency: 'USDC', source_wallet: 'wal_a', recipient_id: 'wal_c' }],
    ['a currency nobody used', { currency: 'SOL' }],
    ['an unknown source', { source_wallet: 'wal_nobody' }],
  ]

  it.each(filters)('filters by %s exactly like a full scan, at every offset', (_name, filter) => {
    const { index, records } = sampleIndex()
    const expected = scan(records, filter)
    for (let offset = 0; offset <= expected.length; offset++) {
      for (const limit of [1, 2, 5, 100]) {
        const page = index.list(filter, offset, limit)
        expect(page.total).toBe(expected.length)
        expect(ids(page.items)).toEqual(expected.slice(offset, offset + limit))
      }
    }
  })

  it('answers all 16 combinations of the four filters like a full scan, after status changes too', () => {
    const { index, records } = sampleIndex()
    const values = { status: ['pending', 'completed'], currency: ['USDC', 'USDT'], recipient_id: [EVM.toLowerCase(), 'wal_c'], source_wallet: ['wal_a', 'wal_b'] } as const
    const check = () => {
      for (let mask = 0; mask < 16; mask++) {
        for (let pick = 0; pick < 16; pick++) {
          const filter: Record<string, string> = {}
          Object.entries(values).forEach(([name, options], bit) => {
            if (mask & (1 << bit)) filter[name] = options[(pick >> bit) & 1]!
          })
          const page = index.list(filter as PaymentFilter, 0, 100)
          expect({ filter, seqs: ids(page.items), total: page.total }).toEqual({ filter, seqs: scan(records, filter as PaymentFilter), total: scan(records, filter as PaymentFilter).length })
        }
      }
    }
    check()
    for (const seq of [2, 5, 8, 12]) {
      const record = records[seq - 1]!
      record.status = 'completed'
      index.statusChanged(record, 'pending')
    }
    check()
  })

  it('moves a payment between status lists when its status changes, keeping newest first', () => {
    const { index, records } = sampleIndex()
    const move = (seq: number, to: PaymentStatus) => {
      const record = records[seq - 1]!
      const previous = record.status
      record.status = to
      index.statusChanged(record, previous)
    }
    move(3, 'processing')
    move(7, 'processing')
    move(7, 'completed')
    move(5, 'failed')
    move(9, 'completed')

    expect(ids(index.list({ status: 'pending' }, 0, 100).items)).toEqual([12, 11, 10, 8, 6, 4, 2, 1])
    expect(ids(index.list({ status: 'processing' }, 0, 100).items)).toEqual([3])
    expect(ids(index.list({ status: 'completed' }, 0, 100).items)).toEqual([9, 7])
    expect(ids(index.list({ status: 'failed' }, 0, 100).items)).toEqual([5])
    for (const status of ['pending', 'processing', 'completed', 'failed'] as const) {
      for (const currency of ['USDC', 'USDT']) {
        expect(ids(index.list({ status, currency }, 0, 100).items)).toEqual(scan(records, { status, currency }))
      }
    }
  })

  it('knows which wallets still have open payments, as source or as recipient', () => {
    const index = new PaymentIndex()
    const out = payment(1, { source: 'wal_a', destination: 'wal_c', destination_type: 'wallet' })
    index.add(out)
    expect(index.hasOpenPayments('wal_a')).toBe(true)
    expect(index.hasOpenPayments('wal_c')).toBe(true)
    expect(index.hasOpenPayments('wal_b')).toBe(false)
    out.status = 'completed'
    index.statusChanged(out, 'pending')
    expect(index.hasOpenPayments('wal_a')).toBe(false)
    expect(index.hasOpenPayments('wal_c')).toBe(false)
  })

  it('finds payments by id and numbers them in creation order', () => {
    const { index, records } = sampleIndex()
    expect(index.get(records[4]!.id)).toBe(records[4])
    expect(index.get('pay_unknown')).toBeUndefined()
    expect(index.size).toBe(12)
    expect(index.nextSeq()).toBe(13)
    expect(new PaymentIndex().nextSeq()).toBe(1)
  })

  it('compares EVM recipients case-insensitively and every other recipient exactly', () => {
    expect(recipientKey(EVM)).toBe(recipientKey(EVM.toLowerCase()))
    expect(recipientKey('GABC')).not.toBe(recipientKey('gabc'))
    expect(recipientKey('wal_Abc')).not.toBe(recipientKey('wal_abc'))
  })
})

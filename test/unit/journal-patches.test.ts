import fc from 'fast-check'
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { put, type Change } from '../../src/store/changes.js'
import { openStore, type Store } from '../../src/store/store.js'
import type { OrderRecord, PaymentRecord, WalletRecord } from '../../src/model/records.js'
import { ACCOUNT, order, payment, tenant, wallet } from '../helpers/store-records.js'

/**
 * Puts of existing wallets, payments and orders are journaled as patches (src/store/journal-patches.ts).
 * Whatever the change sets (a record put several times in one set, a field changed and changed
 * back, puts that change nothing, an order's fills grown or replaced, a compaction between), the
 * journal must replay to the same state.
 */

const root = mkdtempSync(join(tmpdir(), 'wallet-sandbox-patches-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const LATER = ['2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z']

/** One put: a wallet, payment or order (new or existing), with some fields changed. */
const step = fc.record({
  kind: fc.constantFrom('wallet' as const, 'payment' as const, 'order' as const),
  pick: fc.nat(5),
  available: fc.bigInt({ min: 0n, max: 2n ** 70n }),
  status: fc.constantFrom('active', 'frozen'),
  paymentStatus: fc.constantFrom('pending', 'processing', 'completed'),
  at: fc.constantFrom(...LATER),
  metadata: fc.boolean(),
  same: fc.boolean(),
  /** An order: fills added (0 to 2), or its fills replaced by equal copies (as a replayed journal has them). */
  fills: fc.nat(2),
  copyFills: fc.boolean(),
})

/** The next state of an order after `added` fills, or with its fills replaced by copies. */
function nextOrder(base: OrderRecord, added: number, copy: boolean, at: string): OrderRecord {
  const fills = copy ? base.fills.map((fill) => ({ ...fill })) : [...base.fills]
  for (let i = 0; i < added; i++) fills.push({ price: `${3000 + fills.length}.50`, amount: 10n ** 18n + BigInt(fills.length), fee: 3_000_000n, timestamp: at })
  const filled = fills.reduce((sum, fill) => sum + fill.amount, 0n)
  return { ...base, fills, filled_units: filled, status: filled === 0n ? 'open' : 'partially_filled', quote_units: 3000n * filled / 10n ** 12n, updated_at: at }
}
const changeSet = fc.array(step, { minLength: 1, maxLength: 4 })

const stateOf = (store: Store) => JSON.stringify(store.toData())

describe('journal patches', () => {
  it('replay to exactly the state that was journaled (property)', async () => {
    let run = 0
    await fc.assert(
      fc.asyncProperty(fc.array(changeSet, { maxLength: 12 }), fc.nat(12), async (sets, compactAt) => {
        const file = join(root, `run-${run++}`, 'ledger.json')
        const { store } = await openStore({ dataFile: file })
        store.apply([tenant(), put('wallet', ACCOUNT, 'wal_0', wallet('wal_0', 100n))])
        let nextSeq = 1
        for (const [index, set] of sets.entries()) {
          if (index === compactAt) void store.compact()
          const account = store.accounts.get(ACCOUNT)!
          const changes: Change[] = []
          // What this set has put so far, so that a record put twice changes from its own last value.
          const pending = new Map<string, WalletRecord | PaymentRecord | OrderRecord>()
          for (const s of set) {
            if (s.kind === 'wallet') {
              const id = `wal_${s.pick % 3}`
              const base = (pending.get(id) as WalletRecord | undefined) ?? account.wallets.get(id) ?? wallet(id, 0n)
              const next: WalletRecord = s.same ? { ...base } : { ...base, available: s.available, status: s.status as WalletRecord['status'], updated_at: s.at, metadata: s.metadata ? { note: s.at } : base.metadata }
              pending.set(id, next)
              changes.push(put('wallet', ACCOUNT, id, next))
            } else if (s.kind === 'order') {
              const existing = account.orders.values()
              const chosen = existing.length > 0 && s.pick < 4 ? existing[s.pick % existing.length]! : undefined
              // A new order takes the next number: the orders stored and those this set made, not
              // those it put again (counting them reused an id, which the sandbox never does, and
              // made an order's fills shrink, which it never does either).
              const made = [...pending.keys()].filter((id) => id.startsWith('ord_') && !account.orders.get(id)).length
              const base = (chosen && (pending.get(chosen.id) as OrderRecord | undefined)) ?? chosen ?? order(existing.length + 1 + made, 'wal_0', 'wal_1')
              const next = s.same ? { ...base } : nextOrder(base, s.fills, s.copyFills, s.at)
              pending.set(next.id, next)
              changes.push(put('order', ACCOUNT, next.id, next))
            } else {
              const existing = account.payments.values()
              const chosen = existing.length > 0 && s.pick < 4 ? existing[s.pick % existing.length]! : undefined
              const base = (chosen && (pending.get(chosen.id) as PaymentRecord | undefined)) ?? chosen ?? payment(nextSeq++, 'wal_0')
              const next: PaymentRecord = s.same ? { ...base } : { ...base, status: s.paymentStatus as PaymentRecord['status'], updated_at: s.at, tx_hash: s.paymentStatus === 'completed' ? '0xabc' : null }
              pending.set(next.id, next)
              changes.push(put('payment', ACCOUNT, next.id, next))
            }
          }
          store.apply(changes)
        }
        const live = stateOf(store)
        await store.close()
        const reopened = await openStore({ dataFile: file })
        expect(stateOf(reopened.store)).toBe(live)
        await reopened.store.close()
      }),
      { numRuns: 60 },
    )
  }, 60_000)

  it('journal a payment change set as the wallet’s changed fields and the new payment in short', async () => {
    const file = join(root, 'lines', 'ledger.json')
    const { store } = await openStore({ dataFile: file })
    store.apply([tenant(), put('wallet', ACCOUNT, 'wal_0', wallet('wal_0', 100n))])
    const source = store.accounts.get(ACCOUNT)!.wallets.get('wal_0')!
    store.apply([put('wallet', ACCOUNT, 'wal_0', { ...source, available: 99n, locked: 1n }), put('payment', ACCOUNT, 'pay_000000000000000000000001', payment(1, 'wal_0'))])
    store.apply([put('wallet', ACCOUNT, 'wal_0', { ...store.accounts.get(ACCOUNT)!.wallets.get('wal_0')! })])
    await store.close()
    const lines = readFileSync(`${file}.journal.1`, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(lines).toHaveLength(2)
    expect(lines[1].changes[0]).toEqual({ patch: 'wallet', account: ACCOUNT, id: 'wal_0', value: { available: '99', locked: '1' } })
    expect(lines[1].changes[1].value).not.toHaveProperty('description')
  })

  it('journal an order’s fill as the fields it changes and the one fill added, however many came before', async () => {
    const file = join(root, 'order-lines', 'ledger.json')
    const { store } = await openStore({ dataFile: file })
    store.apply([tenant(), put('order', ACCOUNT, 'ord_000000000000000000000001', order(1, 'wal_0', 'wal_1'))])
    const stored = () => store.accounts.get(ACCOUNT)!.orders.get('ord_000000000000000000000001')!
    for (let fill = 0; fill < 3; fill++) store.apply([put('order', ACCOUNT, stored().id, nextOrder(stored(), 1, false, LATER[0]!))])
    const live = stateOf(store)
    await store.close()
    const lines = readFileSync(`${file}.journal.1`, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.at(-1).changes).toEqual([
      { patch: 'order', account: ACCOUNT, id: 'ord_000000000000000000000001', value: { filled_units: '3000000000000000003', quote_units: '9000000000' }, append: { fills: { at: 2, entries: [{ price: '3002.50', amount: '1000000000000000002', fee: '3000000', timestamp: LATER[0] }] } } },
    ])
    const reopened = await openStore({ dataFile: file })
    expect(stateOf(reopened.store)).toBe(live)
    await reopened.store.close()
  })

  it('refuses at start a journaled fill that does not fit an order’s fills, naming it', async () => {
    const file = join(root, 'bad-fill', 'ledger.json')
    const { store } = await openStore({ dataFile: file })
    store.apply([tenant(), put('order', ACCOUNT, 'ord_000000000000000000000001', order(1, 'wal_0', 'wal_1'))])
    await store.close()
    const bad = { patch: 'order', account: ACCOUNT, id: 'ord_000000000000000000000001', value: {}, append: { fills: { at: 0, entries: [{ price: '1.00', amount: 'lots', fee: '0', timestamp: LATER[0] }] } } }
    appendFileSync(`${file}.journal.1`, `${JSON.stringify({ seq: 3, changes: [bad] })}\n`)
    await expect(openStore({ dataFile: file })).rejects.toThrow(/fills/)
  })
})

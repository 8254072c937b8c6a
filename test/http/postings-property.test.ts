import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import type { Store } from '../../src/store/store.js'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * Random histories against a real sandbox (automatic settlement on a manual clock): deposits,
 * payments to addresses and to wallets, bulk payouts, control complete/fail, orders (market and
 * limit, gtc and ioc, buys and sells) with cancels, control fills and rejects, cross-border
 * settlements (to wallets, addresses and bank accounts, failing at any step, refunded) with control
 * advance/fail, clock advances (whose ticks fill resting orders), snapshots and restores. After every
 * step the books must hold: every cached balance is what its
 * postings add up to, every transaction balances, each asset sums to zero over all ledger accounts
 * (external ones included), no balance is negative; and a refused request changes nothing.
 */

const ADDRESSES: Record<string, string> = {
  polygon: '0x52908400098527886E0F7030069857D2E4169EE7',
  ethereum: '0x52908400098527886E0F7030069857D2E4169EE7',
  solana: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
}
// Small and large against the seeded balances (user wallets hold 0 to 250), so some are refused.
const AMOUNTS = ['0.01', '0.75', '1.00', '10.00', '80.50', '250.00', '5000.00']

const amount = fc.constantFrom(...AMOUNTS)
const pick = fc.nat(1000)
/** An address, or another wallet of the same network and currency when there is one. */
const recipient = fc.oneof(fc.constant('address' as const), pick)
const outcome = fc.constantFrom(undefined, undefined, 'failed', 'pending')
const BANKS = {
  USD: { name: 'A', country: 'US', routing_number: '021000021', account_number: '123456789' },
  EUR: { name: 'A', country: 'DE', iban: 'DE89370400440532013000' },
  GBP: { name: 'A', country: 'GB', sort_code: '200000', account_number: '31926819' },
  MXN: { name: 'A', country: 'MX', clabe: '032180000118359719' },
}
/** A settlement's destination: another wallet (any asset, any network), an address, or a bank account. */
const settlementTo = fc.oneof(
  fc.record({ type: fc.constant('wallet' as const), pick }),
  fc.record({ type: fc.constant('address' as const), network: fc.constantFrom('polygon', 'ethereum', 'solana', 'stellar'), currency: fc.constantFrom('USDC', 'native') }),
  fc.record({ type: fc.constant('bank_account' as const), currency: fc.constantFrom('USD', 'EUR', 'GBP', 'MXN') }),
)
const NATIVE: Record<string, string> = { polygon: 'MATIC', ethereum: 'ETH', solana: 'SOL', stellar: 'XLM' }
const settlementFate = fc.constantFrom(undefined, undefined, 'conversion', 'bridge', 'transfer')

const step = fc.oneof(
  fc.record({ kind: fc.constant('deposit' as const), wallet: pick, amount }),
  fc.record({ kind: fc.constant('pay' as const), wallet: pick, amount, to: recipient, outcome }),
  fc.record({ kind: fc.constant('payout' as const), wallet: pick, items: fc.array(fc.record({ amount, to: recipient }), { minLength: 1, maxLength: 4 }) }),
  fc.record({ kind: fc.constantFrom('complete' as const, 'fail' as const), payment: pick }),
  fc.record({ kind: fc.constant('settle' as const), wallet: pick, amount, to: settlementTo, failAt: settlementFate }),
  fc.record({ kind: fc.constantFrom('advance-settlement' as const, 'fail-settlement' as const), settlement: pick }),
  fc.record({ kind: fc.constant('advance' as const), ms: fc.constantFrom(10, 60, 1_000, 5_000, 60_000) }),
  fc.record({
    kind: fc.constant('order' as const),
    pair: fc.constantFrom('ETH/USDC', 'SOL/USDC', 'ETH/USDT', 'ETH/SOL', 'MATIC/USDC'),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    type: fc.constantFrom('market' as const, 'limit' as const, 'ioc' as const),
    amount: fc.constantFrom('0.001', '0.3', '2', '7', '40'),
    // The limit as a percentage of the mid price: far below, just around, far above.
    limitPercent: fc.constantFrom(50, 99, 101, 200),
    base: pick,
    quote: pick,
  }),
  fc.record({ kind: fc.constantFrom('cancel' as const, 'reject' as const), order: pick }),
  fc.record({ kind: fc.constant('fill' as const), order: pick, amount: fc.constantFrom(undefined, '0.001', '1') }),
  fc.record({ kind: fc.constant('snapshot' as const) }),
  fc.record({ kind: fc.constant('restore' as const), snapshot: pick }),
)
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never

interface Wallet {
  id: string
  network: string
  currency: string
}

/** Everything a refused request must leave as it was. */
const books = (store: Store) => JSON.stringify([...store.accounts.values()].map((a) => [a.postings.size, [...a.wallets.values()].map((w) => `${w.available}/${w.locked}`)]))

function expectSoundBooks(store: Store, after: string) {
  for (const account of store.accounts.values()) expect(findLedgerViolations(account), `after ${after}`).toEqual([])
}

async function run(sb: TestSandbox, steps: Step[]) {
  const auth = sb.auth()
  const wallets: Wallet[] = (await sb.api.get('/v1/wallets?limit=100').set(auth).expect(200)).body.data
  const payments: string[] = []
  const orders: string[] = []
  const ofCurrency = (currency: string, choice: number) => {
    const candidates = wallets.filter((w) => w.currency === currency)
    return candidates[choice % candidates.length]!
  }
  /** `percent` % of the pair's mid price now, with 6 decimals. */
  const limitPrice = async (pair: string, percent: number) => {
    const mid: string = (await sb.api.get(`/v1/prices?pairs=${pair}`).set(auth).expect(200)).body.data[0].price
    const [whole, fraction = ''] = mid.split('.')
    const units = (BigInt(whole! + fraction.padEnd(6, '0').slice(0, 6)) * BigInt(percent)) / 100n
    return `${units / 1_000_000n}.${String(units % 1_000_000n).padStart(6, '0')}`
  }
  const settlements: string[] = []
  const snapshots: unknown[] = []
  const at = (list: readonly unknown[], index: number) => list[index % list.length]
  const to = (source: Wallet, choice: 'address' | number) => {
    const peers = wallets.filter((w) => w.id !== source.id && w.network === source.network && w.currency === source.currency)
    return choice === 'address' || peers.length === 0 ? ADDRESSES[source.network]! : peers[choice % peers.length]!.id
  }

  for (const [index, s] of steps.entries()) {
    const before = books(sb.sandbox.store)
    let status = 200
    if (s.kind === 'deposit') {
      const wallet = at(wallets, s.wallet) as Wallet
      status = (await sb.api.post(`/_sandbox/wallets/${wallet.id}/deposit`).send({ amount: s.amount })).status
    } else if (s.kind === 'pay') {
      const source = at(wallets, s.wallet) as Wallet
      const metadata = s.outcome ? { sandbox_outcome: s.outcome } : {}
      const res = await sb.api.post('/v1/payments').set(auth).send({ amount: s.amount, currency: source.currency, source_wallet: source.id, recipient: to(source, s.to), metadata })
      status = res.status
      if (status === 201) payments.push(res.body.data.id)
    } else if (s.kind === 'payout') {
      const source = at(wallets, s.wallet) as Wallet
      const items = s.items.map((item) => ({ amount: item.amount, recipient: to(source, item.to) }))
      const res = await sb.api.post('/v1/payouts').set(auth).send({ source_wallet: source.id, currency: source.currency, items })
      status = res.status
      if (status === 201) payments.push(...res.body.data.payment_ids)
    } else if (s.kind === 'complete' || s.kind === 'fail') {
      if (payments.length) status = (await sb.api.post(`/_sandbox/payments/${at(payments, s.payment)}/${s.kind}`).send({})).status
    } else if (s.kind === 'order') {
      const [baseCurrency, quoteCurrency] = s.pair.split('/') as [string, string]
      const body = {
        pair: s.pair, side: s.side, amount: s.amount,
        type: s.type === 'ioc' ? 'limit' : s.type,
        ...(s.type === 'market' ? {} : { limit_price: await limitPrice(s.pair, s.limitPercent) }),
        ...(s.type === 'ioc' ? { time_in_force: 'ioc' } : {}),
        base_wallet: ofCurrency(baseCurrency, s.base).id, quote_wallet: ofCurrency(quoteCurrency, s.quote).id,
      }
      const res = await sb.api.post('/v1/orders').set(auth).send(body)
      status = res.status
      if (status === 201) orders.push(res.body.data.id)
    } else if (s.kind === 'cancel' && orders.length) {
      status = (await sb.api.post(`/v1/orders/${at(orders, s.order)}/cancel`).set(auth).send({})).status
    } else if (s.kind === 'reject' && orders.length) {
      status = (await sb.api.post(`/_sandbox/orders/${at(orders, s.order)}/reject`).send({})).status
    } else if (s.kind === 'fill' && orders.length) {
      status = (await sb.api.post(`/_sandbox/orders/${at(orders, s.order)}/fill`).send(s.amount ? { amount: s.amount } : {})).status
    } else if (s.kind === 'settle') {
      const source = at(wallets, s.wallet) as Wallet
      const d = s.to
      const destination =
        d.type === 'wallet'
          ? { type: 'wallet', wallet_id: (at(wallets.filter((w) => w.id !== source.id), d.pick) as Wallet).id }
          : d.type === 'address'
            ? { type: 'address', network: d.network, currency: d.currency === 'native' ? NATIVE[d.network] : 'USDC', address: ADDRESSES[d.network] }
            : { type: 'bank_account', currency: d.currency, beneficiary: BANKS[d.currency] }
      // A step the settlement does not have is a 400 that changes nothing, like any refusal.
      const metadata = s.failAt ? { sandbox_outcome: 'failed', sandbox_fail_step: s.failAt } : {}
      const res = await sb.api.post('/v1/settlements').set(auth).send({ source_wallet: source.id, amount: s.amount, destination, metadata })
      status = res.status
      if (status === 201) settlements.push(res.body.data.id)
    } else if (s.kind === 'advance-settlement' || s.kind === 'fail-settlement') {
      if (settlements.length) status = (await sb.api.post(`/_sandbox/settlements/${at(settlements, s.settlement)}/${s.kind.replace('-settlement', '')}`).send({})).status
    } else if (s.kind === 'advance') {
      await sb.api.post('/_sandbox/clock/advance').send({ ms: s.ms }).expect(200)
    } else if (s.kind === 'snapshot') {
      snapshots.push((await sb.api.get('/_sandbox/snapshot').expect(200)).body.data)
    } else if (s.kind === 'restore' && snapshots.length) {
      await sb.api.post('/_sandbox/restore').send(at(snapshots, s.snapshot) as object).expect(200)
    }
    const label = `step ${index} ${JSON.stringify(s)} → ${status}`
    expect(status, label).toBeLessThan(500)
    // Refused (a payment already final, too little available, …): nothing moved.
    if (status >= 400) expect(books(sb.sandbox.store), label).toBe(before)
    expectSoundBooks(sb.sandbox.store, label)
  }
  // The control route shows the same log the checker read.
  const account = sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get('sk_test_sandbox_default_key')!.account_id)!
  const listed = await sb.api.get(`/_sandbox/accounts/${account.account.id}/postings?limit=1`).expect(200)
  expect(listed.body.pagination.total).toBe(account.postings.size)
}

describe('the postings ledger under random histories', () => {
  it('keeps the books sound after every step', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        const sb = await startTestSandbox({ settle: 'auto' })
        try {
          await run(sb, steps)
        } finally {
          await sb.close()
        }
      }),
      { seed: 20260101, numRuns: 30 },
    )
  }, 60_000)
})

import { afterEach, describe, expect, it } from 'vitest'
import { ASSETS, type Network } from '../../src/model/networks.js'
import { formatAmount, toBaseUnits } from '../../src/money.js'
import { createRng } from '../../src/rng.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EXTERNAL: Record<Network, string> = {
  polygon: '0x52908400098527886E0F7030069857D2E4169EE7',
  ethereum: '0xde709f2102306220921060314715629080e2fb77',
  stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
  solana: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
}

let sb: TestSandbox
afterEach(() => sb?.close())

interface Payment {
  id: string
  amount: string
  currency: string
  network: Network
  status: string
  source: string
  destination_type: 'wallet' | 'address'
}

const decimals = (network: Network, currency: string) => ASSETS[network][currency]!
const units = (p: { amount: string; network: Network; currency: string }) => toBaseUnits(p.amount, decimals(p.network, p.currency))

function account() {
  return sb.sandbox.store.accounts.get(sb.sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!
}

async function allPayments(): Promise<Payment[]> {
  const out: Payment[] = []
  for (let offset = 0; ; offset += 100) {
    const res = await sb.api.get(`/v1/payments?limit=100&offset=${offset}`).set(sb.auth()).expect(200)
    out.push(...res.body.data)
    if (!res.body.pagination.has_more) return out
  }
}

/** Per network/currency: Σ (available + locked) over every wallet of the account, in base units, read through the API. */
async function holdings() {
  const wallets = (await sb.api.get('/v1/wallets?limit=100').set(sb.auth()).expect(200)).body.data as Array<{ id: string; network: Network; currency: string }>
  const sums = new Map<string, bigint>()
  const byWallet = new Map<string, { available: bigint; locked: bigint }>()
  for (const wallet of wallets) {
    const b = (await sb.api.get(`/v1/wallets/${wallet.id}/balance`).set(sb.auth()).expect(200)).body.data
    const d = decimals(wallet.network, wallet.currency)
    const available = toBaseUnits(b.available_balance, d)
    const locked = toBaseUnits(b.locked_balance, d)
    expect(toBaseUnits(b.total_balance, d)).toBe(available + locked)
    byWallet.set(wallet.id, { available, locked })
    const pair = `${wallet.network}/${wallet.currency}`
    sums.set(pair, (sums.get(pair) ?? 0n) + available + locked)
  }
  return { sums, byWallet }
}

/** Every balance rule at once: nothing negative, locked = open outgoing payments, totals conserved but for completed external payments. */
async function expectLedgerConsistent(start: Map<string, bigint>) {
  const { sums, byWallet } = await holdings()
  const payments = await allPayments()
  const left = new Map<string, bigint>()
  const openOut = new Map<string, bigint>()
  for (const p of payments) {
    if (p.status === 'completed' && p.destination_type === 'address') {
      const pair = `${p.network}/${p.currency}`
      left.set(pair, (left.get(pair) ?? 0n) + units(p))
    }
    if (p.status === 'pending' || p.status === 'processing') openOut.set(p.source, (openOut.get(p.source) ?? 0n) + units(p))
  }
  for (const [pair, before] of start) expect(sums.get(pair), pair).toBe(before - (left.get(pair) ?? 0n))
  for (const [id, { available, locked }] of byWallet) {
    expect(available >= 0n, `${id} available`).toBe(true)
    expect(locked, `${id} locked`).toBe(openOut.get(id) ?? 0n)
  }
}

describe('concurrent payments from one wallet', () => {
  it('never overdraw it: 50 at once where the balance covers 35', async () => {
    sb = await startTestSandbox()
    const [user] = (await sb.api.get('/v1/wallets?type=user&network=polygon&currency=USDC').set(sb.auth()).expect(200)).body.data
    expect(user.balance).toBe('250.00')
    const record = account().wallets.get(user.id)!
    let lowest = record.available
    sb.sandbox.bus.on('event', () => {
      if (record.available < lowest) lowest = record.available
    })

    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '7.00', currency: 'USDC', source_wallet: user.id, recipient: EXTERNAL.polygon }),
      ),
    )
    const accepted = answers.filter((res) => res.status === 201)
    const refused = answers.filter((res) => res.status !== 201)
    expect(accepted).toHaveLength(35)
    expect(refused.map((res) => `${res.status} ${res.body.error.code}`)).toEqual(Array(15).fill('422 insufficient_funds'))
    expect(accepted.length * 7).toBeLessThanOrEqual(250)
    expect(lowest >= 0n).toBe(true)

    const balance = (await sb.api.get(`/v1/wallets/${user.id}/balance`).set(sb.auth()).expect(200)).body.data
    expect(balance).toMatchObject({ available_balance: '5.00', locked_balance: '245.00', total_balance: '250.00' })
    expect((await sb.api.get('/v1/payments?limit=1').set(sb.auth()).expect(200)).body.pagination.total).toBe(35)
  })

  it('never overdraw it while payments complete and fail in between', async () => {
    sb = await startTestSandbox()
    const [user] = (await sb.api.get('/v1/wallets?type=user&network=solana&currency=USDC').set(sb.auth()).expect(200)).body.data
    const start = (await holdings()).sums
    const record = account().wallets.get(user.id)!
    let created = 0
    // Settle each payment as soon as it exists: odd ones fail (funds return), even ones complete (funds leave).
    sb.sandbox.bus.on('event', (event) => {
      expect(record.available >= 0n && record.locked >= 0n).toBe(true)
      if (event.type !== 'payment.created') return
      const id = (event.data.object as { id: string }).id
      const index = created++
      queueMicrotask(() => {
        const payment = account().payments.get(id)!
        if (index % 2 === 1) sb.sandbox.services.payments.fail(account(), payment, 'network_congestion')
        else sb.sandbox.services.payments.complete(account(), payment)
      })
    })
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '3.50', currency: 'USDC', source_wallet: user.id, recipient: EXTERNAL.solana }),
      ),
    )
    for (const res of answers) expect([201, 422]).toContain(res.status)
    expect(answers.filter((res) => res.status === 422).every((res) => res.body.error.code === 'insufficient_funds')).toBe(true)
    const completed = (await allPayments()).filter((p) => p.status === 'completed')
    // 80.50 available: failed payments give their 3.50 back, so more than 23 can be created.
    expect(completed.length * 350).toBeLessThanOrEqual(8050)
    await expectLedgerConsistent(start)
  })
})

describe('conservation of funds', () => {
  it('the sum of available + locked over all wallets only changes by what left to external addresses', async () => {
    sb = await startTestSandbox()
    const rng = createRng('conservation')
    const pairs: Array<[Network, string]> = [
      ['polygon', 'USDC'],
      ['solana', 'USDC'],
      ['ethereum', 'ETH'],
      ['stellar', 'XLM'],
    ]
    const groups: Array<{ network: Network; currency: string; wallets: Array<{ id: string }> }> = []
    for (const [network, currency] of pairs) {
      const treasury = await institutionalWallet(sb, network, currency)
      const users: Array<{ id: string }> = []
      for (let i = 0; i < 2; i++) users.push((await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: `u${i}`, network, currency }).expect(201)).body.data)
      groups.push({ network, currency, wallets: [treasury, ...users] })
    }
    const start = (await holdings()).sums
    const randomAmount = (network: Network, currency: string, max: number) => formatAmount(BigInt(1 + rng.int(max)) * 10n ** BigInt(decimals(network, currency) - 2), decimals(network, currency))

    /** One round: many concurrent payments between the group's wallets and out to an address, then most of them settle. */
    async function round(max: number) {
      const requests = []
      for (const group of groups) {
        for (let i = 0; i < 12; i++) {
          const from = group.wallets[rng.int(group.wallets.length)]!
          const others = group.wallets.filter((w) => w.id !== from.id)
          const recipient = rng.next() < 0.5 ? EXTERNAL[group.network] : others[rng.int(others.length)]!.id
          requests.push(
            sb.api.post('/v1/payments').set(sb.auth()).send({ amount: randomAmount(group.network, group.currency, max), currency: group.currency, source_wallet: from.id, recipient }),
          )
        }
      }
      const answers = await Promise.all(requests)
      for (const res of answers) {
        expect([201, 422], JSON.stringify(res.body)).toContain(res.status)
        if (res.status === 422) expect(res.body.error.code).toBe('insufficient_funds')
      }
      await expectLedgerConsistent(start)
      for (const res of answers.filter((r) => r.status === 201)) {
        const payment = account().payments.get(res.body.data.id)!
        const roll = rng.next()
        if (roll < 0.6) sb.sandbox.services.payments.complete(account(), payment)
        else if (roll < 0.85) sb.sandbox.services.payments.fail(account(), payment, 'network_congestion')
        else if (roll < 0.92) sb.sandbox.services.payments.process(account(), payment)
      }
      await expectLedgerConsistent(start)
      return answers.filter((r) => r.status === 201).length
    }

    let made = 0
    made += await round(100_000)
    made += await round(50_000)
    made += await round(20_000)
    expect(made).toBeGreaterThan(50)

    // Settle everything still open; the sums then differ from the start by exactly the external payouts.
    for (const payment of account().payments.values()) {
      if (payment.status === 'pending' || payment.status === 'processing') sb.sandbox.services.payments.complete(account(), payment)
    }
    await expectLedgerConsistent(start)
    const externalOut = (await allPayments()).filter((p) => p.destination_type === 'address' && p.status === 'completed')
    expect(externalOut.length).toBeGreaterThan(0)
    const { sums } = await holdings()
    for (const [pair, before] of start) {
      const out = externalOut.filter((p) => `${p.network}/${p.currency}` === pair).reduce((sum, p) => sum + units(p), 0n)
      expect(sums.get(pair), pair).toBe(before - out)
    }
  })
})

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { isValidAddress } from '../../src/chain/networks.js'
import { loadConfig } from '../../src/config.js'
import { ApiError } from '../../src/errors.js'
import type { SandboxEvent } from '../../src/model/events.js'
import { FAILURE_MESSAGES } from '../../src/model/failures.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'
import type { PaymentRecord, WalletRecord } from '../../src/model/records.js'
import type { AccountState } from '../../src/store/account-state.js'

const DEFAULT_KEY = 'sk_test_sandbox_default_key'
const POLYGON_RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'
const RECIPIENTS: Record<string, string> = {
  polygon: POLYGON_RECIPIENT,
  ethereum: POLYGON_RECIPIENT,
  solana: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
  stellar: 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7',
}

let sandbox: Sandbox
let account: AccountState
let events: SandboxEvent[]

beforeEach(async () => {
  sandbox = await createSandbox(loadConfig({ flags: { clock: 'manual', settle: 'manual', quiet: true, seed: 'ledger-test' } }), { logger: silentLogger })
  account = sandbox.store.accounts.get(sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!
  events = []
  sandbox.bus.on('event', (event) => events.push(event))
})
afterEach(() => sandbox.close())

const payments = () => sandbox.services.payments

function treasury(network: string, currency: string): WalletRecord {
  return [...account.wallets.values()].find((w) => w.type === 'institutional' && w.network === network && w.currency === currency)!
}

function balances(wallet: WalletRecord) {
  return { available: wallet.available, locked: wallet.locked }
}

function pay(source: WalletRecord, amount: string, recipient = RECIPIENTS[source.network]!): PaymentRecord {
  return payments().create(account, { amount, currency: source.currency, source_wallet: source.id, recipient, metadata: {} })
}

function userWallet(network: 'polygon' | 'solana', currency: string): WalletRecord {
  return sandbox.services.wallets.create(account, { name: 'Recipient', network, currency, type: 'user', metadata: {} })
}

function expectApiError(run: () => unknown, code: string): void {
  try {
    run()
  } catch (error) {
    expect(error).toBeInstanceOf(ApiError)
    expect((error as ApiError).code).toBe(code)
    return
  }
  throw new Error(`expected ApiError ${code}`)
}

describe('creating a payment', () => {
  it('moves the amount from available to locked and emits payment.created once', () => {
    const source = treasury('polygon', 'USDC')
    const before = balances(source)
    const payment = pay(source, '12.5')
    expect(payment).toMatchObject({ status: 'pending', amount: '12.50', amount_units: 12_500_000n, destination_type: 'address', tx_hash: null, completed_at: null })
    expect(balances(source)).toEqual({ available: before.available - 12_500_000n, locked: before.locked + 12_500_000n })
    expect(events.map((e) => e.type)).toEqual(['payment.created'])
  })

  it('changes nothing when the available balance is too small', () => {
    const source = treasury('ethereum', 'ETH')
    const before = balances(source)
    expectApiError(() => pay(source, '250.000000000000000001'), 'insufficient_funds')
    expect(balances(source)).toEqual(before)
    expect(account.payments.size).toBe(0)
    expect(events).toEqual([])
  })
})

describe('payment transitions', () => {
  it('process: pending → processing moves no funds and emits payment.processing', () => {
    const source = treasury('polygon', 'USDC')
    const payment = pay(source, '10')
    const before = balances(source)
    events.length = 0
    payments().process(account, payment)
    expect(payment.status).toBe('processing')
    expect(balances(source)).toEqual(before)
    expect(events.map((e) => e.type)).toEqual(['payment.processing'])
    expect(account.payments.list({ status: 'processing' }, 0, 10).items).toEqual([payment])
    expect(account.payments.list({ status: 'pending' }, 0, 10).total).toBe(0)
  })

  it('complete: processing → completed takes the amount out of locked, with a tx hash and completed_at', async () => {
    const source = treasury('polygon', 'USDC')
    const start = balances(source)
    const payment = pay(source, '10')
    payments().process(account, payment)
    await sandbox.clock.advance(5_000)
    events.length = 0
    payments().complete(account, payment)
    expect(payment.status).toBe('completed')
    expect(balances(source)).toEqual({ available: start.available - 10_000_000n, locked: start.locked })
    expect(payment.tx_hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(payment.completed_at).toBe(sandbox.clock.nowIso())
    expect(payment.completed_at).toBe('2026-01-01T00:00:05.000Z')
    expect(events.map((e) => e.type)).toEqual(['payment.succeeded'])
  })

  it('complete: an internal payment lands in the recipient’s available balance, so the two totals sum to the same', () => {
    const source = treasury('solana', 'USDC')
    const recipient = userWallet('solana', 'USDC')
    const sumBefore = source.available + source.locked + recipient.available + recipient.locked
    const payment = pay(source, '80.5', recipient.id)
    expect(payment.destination_type).toBe('wallet')
    expect(recipient.available).toBe(0n)
    payments().complete(account, payment)
    expect(recipient.available).toBe(80_500_000n)
    expect(recipient.locked).toBe(0n)
    expect(source.available + source.locked + recipient.available + recipient.locked).toBe(sumBefore)
  })

  it('complete from pending passes through processing: two events, payment.processing then payment.succeeded', () => {
    const payment = pay(treasury('polygon', 'USDC'), '1')
    events.length = 0
    payments().complete(account, payment)
    expect(payment.status).toBe('completed')
    expect(events.map((e) => e.type)).toEqual(['payment.processing', 'payment.succeeded'])
    expect(events.map((e) => (e.data.object as { status: string }).status)).toEqual(['processing', 'completed'])
  })

  it.each(['pending', 'processing'] as const)('fail from %s returns the amount from locked to available', (from) => {
    const source = treasury('polygon', 'USDC')
    const start = balances(source)
    const payment = pay(source, '7.25')
    if (from === 'processing') payments().process(account, payment)
    events.length = 0
    payments().fail(account, payment, 'network_congestion')
    expect(payment).toMatchObject({ status: 'failed', failure_code: 'network_congestion', failure_message: FAILURE_MESSAGES.network_congestion, tx_hash: null })
    expect(balances(source)).toEqual(start)
    expect(events.map((e) => e.type)).toEqual(['payment.failed'])
  })

  it('fail keeps a given failure message', () => {
    const payment = pay(treasury('polygon', 'USDC'), '1')
    payments().fail(account, payment, 'recipient_rejected', 'The exchange refused the deposit.')
    expect(payment).toMatchObject({ failure_code: 'recipient_rejected', failure_message: 'The exchange refused the deposit.' })
  })

  const finalStates = [
    ['completed', (p: PaymentRecord) => payments().complete(account, p)],
    ['failed', (p: PaymentRecord) => payments().fail(account, p, 'network_congestion')],
  ] as const
  const actions = [
    ['process', (p: PaymentRecord) => payments().process(account, p)],
    ['complete', (p: PaymentRecord) => payments().complete(account, p)],
    ['fail', (p: PaymentRecord) => payments().fail(account, p, 'internal_error')],
  ] as const

  for (const [state, finish] of finalStates) {
    for (const [action, run] of actions) {
      it(`a ${state} payment refuses ${action} with invalid_state_transition and nothing moves`, () => {
        const source = treasury('polygon', 'USDC')
        const payment = pay(source, '3')
        finish(payment)
        const before = { ...balances(source), status: payment.status, updated_at: payment.updated_at }
        events.length = 0
        expectApiError(() => run(payment), 'invalid_state_transition')
        expect({ ...balances(source), status: payment.status, updated_at: payment.updated_at }).toEqual(before)
        expect(events).toEqual([])
      })
    }
  }

  it('a processing payment refuses process with invalid_state_transition (409)', () => {
    const payment = pay(treasury('polygon', 'USDC'), '3')
    payments().process(account, payment)
    try {
      payments().process(account, payment)
      throw new Error('expected an error')
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).code).toBe('invalid_state_transition')
      expect((error as ApiError).status).toBe(409)
    }
  })

  it.each([
    ['polygon', 'USDC', /^0x[0-9a-f]{64}$/],
    ['ethereum', 'ETH', /^0x[0-9a-f]{64}$/],
    ['stellar', 'XLM', /^[0-9a-f]{64}$/],
    ['solana', 'SOL', /^[1-9A-HJ-NP-Za-km-z]{64,88}$/],
  ])('a completed %s payment has a tx hash in the network’s format', (network, currency, pattern) => {
    const payment = pay(treasury(network, currency), '1')
    payments().complete(account, payment)
    expect(payment.tx_hash).toMatch(pattern)
  })

  it('emits each event after the store has the change', () => {
    const source = treasury('polygon', 'USDC')
    const seen: Array<{ type: string; status: string; locked: bigint }> = []
    sandbox.bus.on('event', (event) => {
      const stored = account.payments.get((event.data.object as { id: string }).id)!
      seen.push({ type: event.type, status: stored.status, locked: source.locked })
    })
    const payment = pay(source, '2')
    payments().complete(account, payment)
    expect(seen).toEqual([
      { type: 'payment.created', status: 'pending', locked: 2_000_000n },
      { type: 'payment.processing', status: 'processing', locked: 2_000_000n },
      { type: 'payment.succeeded', status: 'completed', locked: 0n },
    ])
  })

  it('lets a wallet be closed once its payments are final and its funds are gone', () => {
    const wallet = userWallet('polygon', 'USDC')
    sandbox.services.wallets.deposit(account, wallet.id, '5', undefined)
    const payment = pay(wallet, '5')
    expect(wallet.available).toBe(0n)
    expectApiError(() => sandbox.services.wallets.close(account, wallet.id), 'wallet_not_empty')
    payments().complete(account, payment)
    expect(sandbox.services.wallets.close(account, wallet.id).status).toBe('closed')
  })
})

describe('seeded accounts', () => {
  it('start with a valid address on every wallet', () => {
    for (const wallet of account.wallets.values()) expect(isValidAddress(wallet.network, wallet.address)).toBe(true)
  })
})

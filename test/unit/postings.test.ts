import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { deposit, lock, post, release, settle } from '../../src/ledger/balances.js'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'
import { parseAccount } from '../../src/model/ledger-accounts.js'
import { put, type Change } from '../../src/store/changes.js'
import { PostingsLog } from '../../src/store/postings-log.js'
import type { WalletRecord } from '../../src/model/records.js'
import type { AccountState } from '../../src/store/account-state.js'

const DEFAULT_KEY = 'sk_test_sandbox_default_key'
const ETH_RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('the postings log', () => {
  it('keeps transactions in order with their cause, reference, time and lines', () => {
    const log = new PostingsLog()
    expect(log.append('deposit', '0xabc', 1000, [{ account: 'external:polygon:USDC', amount: -5n }, { account: 'wal_a:available', amount: 5n }])).toBe(1)
    expect(log.append('payment.created', 'pay_1', 2000, [{ account: 'wal_a:available', amount: -3n }, { account: 'wal_a:locked', amount: 3n }])).toBe(2)
    expect(log.size).toBe(2)
    expect(log.transaction(2)).toEqual({ id: 2, cause: 'payment.created', ref: 'pay_1', at: 2000, lines: [{ account: 'wal_a:available', amount: -3n }, { account: 'wal_a:locked', amount: 3n }] })
    expect([...log].map((tx) => tx.id)).toEqual([1, 2])
    expect(() => log.transaction(3)).toThrow(RangeError)
    expect(log.balances()).toEqual(new Map([['external:polygon:USDC', -5n], ['wal_a:available', 2n], ['wal_a:locked', 3n]]))
  })

  it('keeps amounts far beyond 64 bits exactly, negative ones included (ETH has 18 decimals)', () => {
    const log = new PostingsLog()
    const amounts = [2n ** 64n + 1n, 250_000_000_000_000_000_000n, 2n ** 100n - 7n, 1n, 2n ** 63n]
    for (const amount of amounts) log.append('deposit', 'x', 0, [{ account: 'external:ethereum:ETH', amount: -amount }, { account: 'wal_e:available', amount }])
    expect([...log].flatMap((tx) => tx.lines.map((line) => line.amount))).toEqual(amounts.flatMap((amount) => [-amount, amount]))
    expect(log.balances().get('wal_e:available')).toBe(amounts.reduce((a, b) => a + b))
  })

  it('grows past its first capacity without losing a line', () => {
    const log = new PostingsLog()
    for (let i = 1; i <= 1000; i++) log.append('deposit', `r${i}`, i, [{ account: 'external:solana:SOL', amount: -BigInt(i) }, { account: `wal_${i % 7}:available`, amount: BigInt(i) }])
    expect(log.size).toBe(1000)
    expect(log.transaction(777)).toMatchObject({ ref: 'r777', at: 777, lines: [{ amount: -777n }, { account: 'wal_0:available', amount: 777n }] })
    expect([...log.balances().values()].reduce((a, b) => a + b)).toBe(0n)
  })

  it('names ledger accounts: two per wallet, and one external, trading and fees account per network and currency', () => {
    expect(parseAccount('wal_8Hn2QeR5tYw9LmK3vB7xZc1D:locked')).toEqual({ kind: 'wallet', walletId: 'wal_8Hn2QeR5tYw9LmK3vB7xZc1D', bucket: 'locked' })
    expect(parseAccount('external:stellar:XLM')).toEqual({ kind: 'external', counterparty: 'external', network: 'stellar', currency: 'XLM' })
    expect(parseAccount('trading:ethereum:ETH')).toEqual({ kind: 'external', counterparty: 'trading', network: 'ethereum', currency: 'ETH' })
    expect(parseAccount('fees:polygon:USDC')).toEqual({ kind: 'external', counterparty: 'fees', network: 'polygon', currency: 'USDC' })
    expect(parseAccount('market:polygon:USDC')).toBeUndefined()
    expect(parseAccount('wal_x:pending')).toBeUndefined()
    expect(parseAccount('treasury')).toBeUndefined()
  })
})

let sandbox: Sandbox
let account: AccountState
/** A sandbox with a manual clock and manual settlement, and its default account. */
async function startLedger() {
  sandbox = await createSandbox(loadConfig({ flags: { clock: 'manual', settle: 'manual', quiet: true, seed: 'postings-test' } }), { logger: silentLogger })
  account = sandbox.store.accounts.get(sandbox.store.keys.get(DEFAULT_KEY)!.account_id)!
}

describe('posting money', () => {
  beforeEach(startLedger)
  afterEach(() => sandbox.close())

  const treasury = (network: string, currency: string): WalletRecord => [...account.wallets.values()].find((w) => w.type === 'institutional' && w.network === network && w.currency === currency)!
  const last = () => account.postings.transaction(account.postings.size)

  it('seeds every funded wallet with an opening balance from outside, so the books start sound', () => {
    const funded = [...account.wallets.values()].filter((wallet) => wallet.available > 0n)
    const openings = [...account.postings].filter((tx) => tx.cause === 'opening_balance')
    expect(openings.map((tx) => tx.ref)).toEqual(funded.map((wallet) => wallet.id))
    const eth = treasury('ethereum', 'ETH')
    expect(openings.find((tx) => tx.ref === eth.id)!.lines).toEqual([
      { account: 'external:ethereum:ETH', amount: -eth.available },
      { account: `${eth.id}:available`, amount: eth.available },
    ])
    expect(findLedgerViolations(account)).toEqual([])
  })

  it('posts each step of a payment: lock at creation, then out to the external account at completion', () => {
    const eth = treasury('ethereum', 'ETH')
    const payment = sandbox.services.payments.create(account, { amount: '12.5', currency: 'ETH', source_wallet: eth.id, recipient: ETH_RECIPIENT, metadata: {} })
    expect(last()).toMatchObject({ cause: 'payment.created', ref: payment.id, at: Date.parse('2026-01-01T00:00:00.000Z') })
    expect(last().lines).toEqual([
      { account: `${eth.id}:available`, amount: -12_500_000_000_000_000_000n },
      { account: `${eth.id}:locked`, amount: 12_500_000_000_000_000_000n },
    ])
    sandbox.services.payments.complete(account, payment)
    expect(last()).toMatchObject({ cause: 'payment.completed', ref: payment.id })
    expect(last().lines).toEqual([
      { account: `${eth.id}:locked`, amount: -12_500_000_000_000_000_000n },
      { account: 'external:ethereum:ETH', amount: 12_500_000_000_000_000_000n },
    ])
    expect(findLedgerViolations(account)).toEqual([])
  })

  it('posts a whole bulk payout’s lock as one transaction, and each item’s outcome as its own', () => {
    const usdc = treasury('polygon', 'USDC')
    const size = account.postings.size
    const payout = sandbox.services.payouts.create(account, { source_wallet: usdc.id, currency: 'USDC', metadata: {}, items: [{ amount: '1', recipient: ETH_RECIPIENT, metadata: {} }, { amount: '2.5', recipient: ETH_RECIPIENT, metadata: {} }] })
    expect(account.postings.size).toBe(size + 1)
    expect(last()).toMatchObject({ cause: 'payout.created', ref: payout.id, lines: [{ amount: -3_500_000n }, { amount: 3_500_000n }] })
    sandbox.services.payments.fail(account, account.payments.get(payout.payment_ids[1]!)!, 'network_congestion')
    expect(last()).toMatchObject({ cause: 'payment.failed', ref: payout.payment_ids[1], lines: [{ account: `${usdc.id}:locked`, amount: -2_500_000n }, { account: `${usdc.id}:available`, amount: 2_500_000n }] })
    expect(findLedgerViolations(account)).toEqual([])
  })

  it('refuses an unbalanced transaction, a posting to an unknown account, or an overdraft, and changes nothing', () => {
    const usdc = treasury('polygon', 'USDC')
    const before = { size: account.postings.size, available: usdc.available, locked: usdc.locked }
    const reason = { cause: 'deposit' as const, ref: 'test', at: 0 }
    const changes: Change[] = []
    expect(() => post(account, reason, [{ account: `${usdc.id}:available`, amount: 5n }], [usdc], changes)).toThrow(/polygon:USDC sums to 5/)
    expect(() => post(account, reason, [{ account: 'external:polygon:USDC', amount: -5n }, { account: 'wal_nobody:available', amount: 5n }], [usdc], changes)).toThrow(/no ledger account wal_nobody/)
    expect(() => post(account, reason, [{ account: 'external:solana:USDC', amount: -5n }, { account: `${usdc.id}:available`, amount: 5n }], [usdc], changes)).toThrow(/sums to/)
    expect(() => post(account, reason, [{ account: 'external:polygon:DOGE', amount: -5n }, { account: `${usdc.id}:available`, amount: 5n }], [usdc], changes)).toThrow(/no ledger account external:polygon:DOGE/)
    expect(() => post(account, reason, [{ account: 'external:polygon:USDC', amount: 0n }, { account: `${usdc.id}:available`, amount: 0n }], [usdc], changes)).toThrow(/a posting of zero on external:polygon:USDC/)
    // Lines on one wallet balance add up before the overdraft check: -5 and +3 on a locked balance of 0.
    expect(() => post(account, reason, [{ account: `${usdc.id}:locked`, amount: -5n }, { account: `${usdc.id}:locked`, amount: 3n }, { account: `${usdc.id}:available`, amount: 2n }], [usdc], changes)).toThrow(new RegExp(`${usdc.id}:locked would fall to ${usdc.locked - 2n}`))
    expect(() => lock(account, usdc, usdc.available + 1n, { cause: 'payment.created', ref: 'pay_x', at: 0 }, changes)).toThrow(/would fall to -1/)
    // A wallet line must name one of the copies the caller is about to put, never a stored record.
    expect(() => post(account, reason, [{ account: 'external:polygon:USDC', amount: -5n }, { account: `${usdc.id}:available`, amount: 5n }], [], changes)).toThrow(/no ledger account/)
    expect(changes).toEqual([])
    expect({ size: account.postings.size, available: usdc.available, locked: usdc.locked }).toEqual(before)
  })

  it('locks and releases as post() would with the same two lines: the same append, balances and refusals', () => {
    const usdc = treasury('polygon', 'USDC')
    const reason = { cause: 'payment.created' as const, ref: 'pay_same', at: 7 }
    /** What a move does to a copy of a wallet holding these balances: its balances and append after, or the refusal. */
    const outcome = (move: (wallet: WalletRecord, changes: Change[]) => void, balances: { available: bigint; locked: bigint }) => {
      const wallet = { ...usdc, ...balances }
      const changes: Change[] = []
      try {
        move(wallet, changes)
        return { available: wallet.available, locked: wallet.locked, changes }
      } catch (error) {
        return { refused: (error as Error).message, available: wallet.available, locked: wallet.locked, changes }
      }
    }
    const byPost = (from: string, to: string, units: bigint) => (wallet: WalletRecord, changes: Change[]) =>
      post(account, reason, [{ account: `${wallet.id}:${from}`, amount: -units }, { account: `${wallet.id}:${to}`, amount: units }], [wallet], changes)
    const holdings = [{ available: 10n, locked: 0n }, { available: 0n, locked: 10n }, { available: 4n, locked: 6n }, { available: 0n, locked: 0n }]
    let refused = 0
    for (const balances of holdings) {
      for (const units of [1n, 4n, 6n, 10n, 11n, 0n, -1n, -6n, -11n]) {
        const locked = outcome((wallet, changes) => lock(account, wallet, units, reason, changes), balances)
        const released = outcome((wallet, changes) => release(account, wallet, units, reason, changes), balances)
        expect(locked).toEqual(outcome(byPost('available', 'locked', units), balances))
        expect(released).toEqual(outcome(byPost('locked', 'available', units), balances))
        if ('refused' in locked) refused++
      }
    }
    // Both ways were met: moves made, and each refusal (zero, either balance falling).
    expect(refused).toBeGreaterThan(10)
    expect(refused).toBeLessThan(holdings.length * 9)
  })

  it('moves an internal payment from the source’s locked into the recipient’s available, all in one change set', () => {
    const usdc = treasury('solana', 'USDC')
    const recipient = sandbox.services.wallets.create(account, { name: 'r', network: 'solana', currency: 'USDC', type: 'user', metadata: {} })
    const size = account.postings.size
    const source = { ...usdc }
    const target = { ...recipient }
    const changes: Change[] = []
    deposit(account, source, 10n, 'sender', 0, changes)
    lock(account, source, 10n, { cause: 'payment.created', ref: 'pay_y', at: 0 }, changes)
    settle(account, source, 10n, target, { cause: 'payment.completed', ref: 'pay_y', at: 0 }, changes)
    // Nothing moved until the change set is applied; the appends land one after another.
    expect(account.postings.size).toBe(size)
    expect(changes.map((change) => change.op === 'append' && change.at)).toEqual([size, size + 1, size + 2])
    const id = account.account.id
    sandbox.store.apply([...changes, put('wallet', id, source.id, source), put('wallet', id, target.id, target)])
    expect(last().lines).toEqual([{ account: `${usdc.id}:locked`, amount: -10n }, { account: `${recipient.id}:available`, amount: 10n }])
    expect(recipient.available).toBe(10n)
    expect(findLedgerViolations(account)).toEqual([])
  })
})

describe('the ledger checker', () => {
  beforeEach(startLedger)
  afterEach(() => sandbox.close())

  const someWallet = () => [...account.wallets.values()].find((w) => w.available > 0n)!

  it('finds nothing wrong in a fresh account', () => {
    expect(findLedgerViolations(account)).toEqual([])
  })

  it('catches a cached balance that its postings do not add up to', () => {
    const wallet = someWallet()
    wallet.available += 1n
    expect(findLedgerViolations(account)).toEqual([`wallet ${wallet.id}: cached available ${wallet.available} differs from its postings, ${wallet.available - 1n}`])
  })

  it('catches a transaction that does not sum to zero, and the money it creates', () => {
    const wallet = someWallet()
    account.postings.append('deposit', 'forged', 0, [{ account: `${wallet.id}:locked`, amount: 7n }])
    wallet.locked += 7n // the cache agrees, so only the books show it
    const asset = `${wallet.network}:${wallet.currency}`
    expect(findLedgerViolations(account)).toEqual([
      `transaction ${account.postings.size} (deposit forged) does not balance: ${asset} sums to 7`,
      `${asset} is not conserved: the ledger accounts sum to 7, not 0`,
    ])
  })

  it('catches a negative balance and a posting to an account that does not exist', () => {
    const wallet = someWallet()
    const units = wallet.available
    account.postings.append('payment.created', 'pay_z', 0, [{ account: `${wallet.id}:available`, amount: -(units + 1n) }, { account: `${wallet.id}:locked`, amount: units + 1n }])
    wallet.available = -1n
    wallet.locked = units + 1n
    account.postings.append('deposit', 'ghost', 0, [{ account: 'external:polygon:USDC', amount: -1n }, { account: 'wal_ghost:available', amount: 1n }])
    expect(findLedgerViolations(account)).toEqual([
      `transaction ${account.postings.size} (deposit ghost) posts to wal_ghost:available, which is no ledger account`,
      `transaction ${account.postings.size} (deposit ghost) does not balance: polygon:USDC sums to -1`,
      'polygon:USDC is not conserved: the ledger accounts sum to -1, not 0',
      `wallet ${wallet.id}: available is negative (-1)`,
    ])
  })
})

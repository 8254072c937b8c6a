import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { silentLogger } from '../../src/logger.js'
import type { PaymentRecord, WalletRecord } from '../../src/model/records.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'
import { assignPayment, assignWallet } from '../../src/store/record-assign.js'

let sandbox: Sandbox
let wallet: WalletRecord
let payment: PaymentRecord
beforeAll(async () => {
  sandbox = await createSandbox(loadConfig({ flags: { clock: 'manual', settle: 'manual', quiet: true, seed: 'record-assign' } }), { logger: silentLogger })
  const account = [...sandbox.store.accounts.values()][0]!
  wallet = [...account.wallets.values()].find((w) => w.network === 'polygon' && w.currency === 'USDC')!
  const created = sandbox.services.payments.create(account, { amount: '1', currency: 'USDC', source_wallet: wallet.id, recipient: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed', description: 'd', metadata: { a: 'b' } })
  sandbox.services.payments.complete(account, created)
  payment = account.payments.get(created.id)!
})
afterAll(() => sandbox.close())

/** A record with every field of `real` set to a value of its own, which no field of `real` holds. */
const distinct = <T extends object>(real: T): T => Object.fromEntries(Object.keys(real).map((key) => [key, Symbol(key)])) as T

describe('a put copied onto the stored record', () => {
  it.each([
    ['wallet', () => wallet, assignWallet],
    ['payment', () => payment, assignPayment],
  ] as const)('copies every field a real %s has, and adds none', (_, real, assign) => {
    const target = { ...real() }
    const value = distinct(real())
    assign(target as never, value as never)
    expect(target).toEqual(value)
    expect(Object.keys(target)).toEqual(Object.keys(real()))
  })
})

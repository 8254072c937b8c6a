import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { findLedgerViolations } from '../../src/ledger/ledger-check.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox } from '../../src/sandbox.js'
import type { Data } from '../../src/schemas/data-file.js'
import { openStore, StoreLoadError } from '../../src/store/store.js'

const EXTERNAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

let dir: string
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'postings-data-'))))
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** The state of a sandbox with one pending payment, as its data file holds it. */
async function dataWithPendingPayment(): Promise<{ data: Data; walletId: string }> {
  const sandbox = await createSandbox(loadConfig({ flags: { clock: 'manual', settle: 'manual', quiet: true, seed: 'postings-data' } }), { logger: silentLogger })
  const account = [...sandbox.store.accounts.values()][0]!
  const wallet = [...account.wallets.values()].find((w) => w.network === 'polygon' && w.currency === 'USDC' && w.type === 'user')!
  sandbox.services.payments.create(account, { amount: '3', currency: 'USDC', source_wallet: wallet.id, recipient: EXTERNAL, metadata: {} })
  const data = JSON.parse(JSON.stringify(sandbox.store.toData())) as Data
  await sandbox.close()
  return { data, walletId: wallet.id }
}

describe('postings in the data file', () => {
  it('round-trips: a file written with postings loads the same log and balances', async () => {
    const { data } = await dataWithPendingPayment()
    const file = join(dir, 'ledger.json')
    writeFileSync(file, JSON.stringify(data))
    const { store, loaded } = await openStore({ dataFile: file })
    expect(loaded).toBe(true)
    expect(JSON.parse(JSON.stringify(store.toData()))).toEqual(data)
    for (const account of store.accounts.values()) expect(findLedgerViolations(account)).toEqual([])
  })

  it('migrates a file written before postings existed: one opening balance per funded wallet, as of its last change', async () => {
    const { data, walletId } = await dataWithPendingPayment()
    for (const account of data.accounts) delete account.postings
    const file = join(dir, 'ledger.json')
    writeFileSync(file, JSON.stringify(data))
    const { store } = await openStore({ dataFile: file })
    const account = [...store.accounts.values()][0]!
    const funded = data.accounts[0]!.wallets.filter((w) => w.available !== '0' || w.locked !== '0')
    expect([...account.postings].map((tx) => [tx.cause, tx.ref])).toEqual(funded.map((w) => ['opening_balance', w.id]))
    const opening = [...account.postings].find((tx) => tx.ref === walletId)!
    expect(opening.lines).toEqual([
      { account: 'external:polygon:USDC', amount: -250_000_000n },
      { account: `${walletId}:available`, amount: 247_000_000n },
      { account: `${walletId}:locked`, amount: 3_000_000n },
    ])
    expect(opening.at).toBe(Date.parse(data.accounts[0]!.wallets.find((w) => w.id === walletId)!.updated_at))
    expect(findLedgerViolations(account)).toEqual([])
  })

  it('refuses a file whose postings do not add up to a wallet’s balance, naming the wallet, and leaves it untouched', async () => {
    const { data, walletId } = await dataWithPendingPayment()
    const w = data.accounts[0]!.wallets.findIndex((wallet) => wallet.id === walletId)
    data.accounts[0]!.wallets[w]!.locked = '0'
    const file = join(dir, 'ledger.json')
    const text = JSON.stringify(data)
    writeFileSync(file, text)
    const opening = openStore({ dataFile: file })
    await expect(opening).rejects.toBeInstanceOf(StoreLoadError)
    await expect(opening).rejects.toThrow(`is inconsistent at accounts[0].wallets[${w}].locked: wallet ${walletId} has locked 0.00 USDC but its postings add up to 3.00 USDC`)
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it('refuses a file without postings whose wallet holds a negative balance: that money would come from nowhere', async () => {
    const { data, walletId } = await dataWithPendingPayment()
    for (const account of data.accounts) delete account.postings
    const w = data.accounts[0]!.wallets.findIndex((wallet) => wallet.id === walletId)
    data.accounts[0]!.wallets[w]!.available = '-1000000'
    const file = join(dir, 'ledger.json')
    writeFileSync(file, JSON.stringify(data))
    await expect(openStore({ dataFile: file })).rejects.toThrow(`accounts[0].wallets[${w}].available: wallet ${walletId} has a negative available balance (-1.00 USDC)`)
  })
})

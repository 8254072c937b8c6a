import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createWebhookReceiver, startSandbox, type RunningSandbox } from '../../../src/public.js'

/**
 * The scenario every helper runs in its own language (docs/development.md lists them side by side):
 * start, pay, force a failure, await payment.failed through the events route and through a verified
 * webhook, advance the clock, snapshot and restore, and parallel tests on isolated accounts.
 */

let sandbox: RunningSandbox
beforeAll(async () => {
  sandbox = await startSandbox({ clock: 'manual', settle: 'manual' })
})
afterAll(() => sandbox.close())

/** A fresh account: a new key on a freshly seeded account, and its first USDC wallet on polygon. */
async function newAccount() {
  const handle = await sandbox.newAccount()
  const key = handle.apiKey
  // The API's answers, read as a test reads them.
  const api = async (method: string, path: string, body?: object): Promise<any> => {
    const res = await fetch(`${sandbox.url}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body && JSON.stringify(body) })
    const json = (await res.json()) as { data: unknown }
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`)
    return json.data
  }
  const [wallet] = await api('GET', '/wallets?currency=USDC&network=polygon')
  return { key, api, wallet, handle }
}

const pay = (account: Awaited<ReturnType<typeof newAccount>>, amount = '10.00') =>
  account.api('POST', '/payments', { source_wallet: account.wallet.id, amount, currency: 'USDC', recipient: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' })

describe('the shared scenario, in Node', () => {
  it('pays, fails the payment on purpose, and sees payment.failed through the events route and a verified webhook', async () => {
    const account = await newAccount()
    const receiver = await createWebhookReceiver()
    const endpoint = await account.api('POST', '/webhooks', { url: receiver.url, events: ['payment.failed'] })
    receiver.secret = endpoint.secret

    const payment = await pay(account)
    await sandbox.control.failPayment(payment.id, { failure_code: 'insufficient_network_fee' })

    const event = await sandbox.waitForEvent({ api_key: account.key, type: 'payment.failed', object_id: payment.id })
    expect(event.data.object).toMatchObject({ id: payment.id, status: 'failed', failure_code: 'insufficient_network_fee' })
    const delivered = await receiver.waitFor({ type: 'payment.failed', object_id: payment.id })
    expect(delivered).toEqual(event)
    await receiver.close()
  })

  it('advances its account’s clock, and snapshots and restores its account, while another account goes on', async () => {
    const account = await newAccount()
    const other = await newAccount()
    const before = await account.handle.clock()
    const after = await account.handle.advanceClock(60_000)
    expect(Date.parse(after.now) - Date.parse(before.now)).toBe(60_000)
    expect((await sandbox.control.clock()).now).toBe(before.now)

    const snapshot = await account.handle.snapshot()
    const payment = await pay(account)
    const theirs = await pay(other)
    await account.handle.restore(snapshot)
    await expect(account.api('GET', `/payments/${payment.id}`)).rejects.toThrow(/404/)
    expect(await other.api('GET', `/payments/${theirs.id}`)).toMatchObject({ id: theirs.id })
  })

  it('runs in parallel on isolated accounts: each sees only its own events', async () => {
    const runs = await Promise.all([1, 2, 3, 4].map(async (n) => {
      const account = await newAccount()
      const payment = await pay(account, `${n}.00`)
      await sandbox.control.failPayment(payment.id)
      const event = await sandbox.waitForEvent({ api_key: account.key, type: 'payment.failed' })
      const all = await sandbox.control.events({ api_key: account.key })
      return { payment, event, all }
    }))
    for (const { payment, event, all } of runs) {
      expect(event.data.object).toMatchObject({ id: payment.id })
      expect(all.data.map((e) => (e.data.object as { id: string }).id)).toEqual([payment.id, payment.id])
    }
  })
})

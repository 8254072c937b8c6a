import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * A journal line carries an account's generator position only when it moved (src/store/rng-states.ts).
 * A restart after a clean stop must still go on drawing exactly what an uninterrupted sandbox draws
 * (ids of records, transaction hashes, event ids), so that no id is handed out twice.
 */

const root = mkdtempSync(join(tmpdir(), 'wallet-sandbox-restart-ids-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

const RECIPIENT = '0x52908400098527886E0F7030069857D2E4169EE7'

/**
 * A payment, then the clock moved on until it completed: its later steps run on timers, and only
 * completing draws in its change set (a transaction hash). The events of each step draw their ids
 * after the step's change set is journaled: only the next change of the account, or the journal's
 * last line at a clean stop, keeps that generator position.
 */
async function lifecycle(sb: TestSandbox): Promise<{ id: string; tx_hash: string }> {
  const account = sb.sandbox.store.accounts.get(sb.sandbox.accounts.ensureDefault().account.id)!
  const source = [...account.wallets.values()].find((wallet) => wallet.type === 'institutional' && wallet.network === 'polygon' && wallet.currency === 'USDC')!
  const res = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: RECIPIENT }).expect(201)
  await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000 }).expect(200)
  const done = await sb.api.get(`/v1/payments/${res.body.data.id}`).set(sb.auth()).expect(200)
  expect(done.body.data.status).toBe('completed')
  return { id: done.body.data.id, tx_hash: done.body.data.tx_hash }
}

describe('ids after a restart on a data file', () => {
  it('are the ones an uninterrupted sandbox draws: a payment’s timed steps journal no generator position, and a clean stop journals the last ones', async () => {
    const settings = { settle: 'auto', clock: 'manual', seed: 'restart-ids' } as const
    const uninterrupted = await startTestSandbox(settings)
    const expected = [await lifecycle(uninterrupted), await lifecycle(uninterrupted), await lifecycle(uninterrupted)]
    await uninterrupted.close()

    const dataFile = join(root, 'ledger.json')
    const first = await startTestSandbox({ ...settings, dataFile })
    const before = [await lifecycle(first), await lifecycle(first)]
    await first.close()
    const journal = readdirSync(root).find((name) => name.includes('.journal.'))!
    const lines = readFileSync(join(root, journal), 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(lines.filter((line) => line.rng === undefined)).toHaveLength(2)
    expect(lines.at(-1)).toMatchObject({ changes: [] })

    const second = await startTestSandbox({ ...settings, dataFile })
    const after = await lifecycle(second)
    await second.close()
    expect([...before, after]).toEqual(expected)
  })
})

import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { advanceClock, balanceOf, bankDestination, createSettlement, getSettlement, institutionalWallet, show, units } from '../helpers/settlements.js'

let sb: TestSandbox
afterEach(async () => {
  await sb.close()
})

async function restrictedKey(scopes: string[]) {
  const account = (await sb.api.get('/_sandbox/accounts').expect(200)).body.data[0].id
  return (await sb.api.post('/_sandbox/keys').send({ account_id: account, type: 'restricted', scopes }).expect(201)).body.data.key as string
}

describe('scopes and isolation', () => {
  it('creating needs settlements:write, reading settlements:read (write includes read)', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const body = { source_wallet: source.id, amount: '1.00', destination: bankDestination('USD') }
    const reader = await restrictedKey(['settlements:read'])
    const writer = await restrictedKey(['settlements:write'])
    const payments = await restrictedKey(['payments:write'])
    const refused = await sb.api.post('/v1/settlements').set(sb.auth(reader)).send(body).expect(403)
    expect(refused.body.error).toMatchObject({ code: 'insufficient_permissions' })
    expect(refused.body.error.message).toContain('settlements:write')
    expect((await sb.api.get('/v1/settlements').set(sb.auth(payments)).expect(403)).body.error.message).toContain('settlements:read')
    const { data } = await createSettlement(sb, body, 201, writer)
    await sb.api.get(`/v1/settlements/${data.id}`).set(sb.auth(writer)).expect(200)
    await sb.api.get('/v1/settlements').set(sb.auth(reader)).expect(200)
  })

  it('another account’s settlement is 404 like an unknown id, and never listed', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '1.00', destination: bankDestination('USD') })
    const other = 'sk_test_other_account_1'
    const res = await sb.api.get(`/v1/settlements/${data.id}`).set(sb.auth(other)).expect(404)
    expect(res.body.error.code).toBe('resource_missing')
    expect((await sb.api.get('/v1/settlements').set(sb.auth(other)).expect(200)).body.data).toEqual([])
    // Nor can another account settle from this account's wallet.
    const foreign = await createSettlement(sb, { source_wallet: source.id, amount: '1.00', destination: bankDestination('USD') }, 404, other)
    expect(foreign.error).toMatchObject({ code: 'resource_missing', param: 'source_wallet' })
  })
})

describe('idempotency and determinism', () => {
  it('a retry with the same key replays the answer and creates nothing more', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const body = { source_wallet: source.id, amount: '10.00', destination: bankDestination('GBP') }
    const first = await sb.api.post('/v1/settlements').set({ ...sb.auth(), 'Idempotency-Key': 'stl-1' }).send(body).expect(201)
    const again = await sb.api.post('/v1/settlements').set({ ...sb.auth(), 'Idempotency-Key': 'stl-1' }).send(body).expect(201)
    expect(again.headers['idempotent-replayed']).toBe('true')
    expect(again.text).toBe(first.text)
    expect((await sb.api.get('/v1/settlements').set(sb.auth()).expect(200)).body.pagination.total).toBe(1)
    expect((await balanceOf(sb, source.id)).locked_balance).toBe(first.body.data.total_debit)
    const reused = await sb.api.post('/v1/settlements').set({ ...sb.auth(), 'Idempotency-Key': 'stl-1' }).send({ ...body, amount: '11.00' }).expect(422)
    expect(reused.body.error.code).toBe('idempotency_key_reused')
  })

  it('the same seed and requests give byte-identical answers', async () => {
    const run = async () => {
      sb = await startTestSandbox({ settle: 'auto' })
      const source = await institutionalWallet(sb, 'polygon', 'USDC')
      const created = await sb.api.post('/v1/settlements').set(sb.auth()).send({ source_wallet: source.id, amount: '42.00', destination: { type: 'address', network: 'solana', currency: 'SOL', address: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' } })
      await advanceClock(sb, 60_000)
      const done = await sb.api.get(`/v1/settlements/${created.body.data.id}`).set(sb.auth())
      await sb.close()
      return [created.body.data, done.body.data]
    }
    const first = await run()
    const second = await run()
    expect(second).toEqual(first)
    sb = await startTestSandbox()
  })
})

describe('persistence', () => {
  it('a snapshot carries settlements; a restore brings them back and their timers run on', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '10.00', destination: bankDestination('MXN') })
    await advanceClock(sb, 600)
    const taken = (await sb.api.get('/_sandbox/snapshot').expect(200)).body.data
    await advanceClock(sb, 60_000)
    expect((await getSettlement(sb, data.id)).status).toBe('completed')
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    const restored = await getSettlement(sb, data.id)
    expect(restored.status).toBe('processing')
    await advanceClock(sb, 60_000)
    expect((await getSettlement(sb, data.id)).status).toBe('completed')
    expect(await balanceOf(sb, source.id)).toMatchObject({ locked_balance: '0.00', total_balance: show(units('1000000', 6) - units(data.total_debit, 6), 6) })
  })

  it('a restart on the data file keeps settlements, and a pending refund completes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'settlements-'))
    const dataFile = join(dir, 'data.json')
    try {
      sb = await startTestSandbox({ dataFile })
      const source = await institutionalWallet(sb, 'polygon', 'USDC')
      const { data } = await createSettlement(sb, { source_wallet: source.id, amount: '10.00', destination: bankDestination('EUR'), metadata: { sandbox_outcome: 'failed' } })
      await sb.api.post(`/_sandbox/settlements/${data.id}/advance`).send({}).expect(200)
      const failed = (await sb.api.post(`/_sandbox/settlements/${data.id}/advance`).send({}).expect(200)).body.data
      expect(failed).toMatchObject({ status: 'processing', failure_code: 'transfer_failed' })
      await sb.close()
      sb = await startTestSandbox({ dataFile })
      expect((await getSettlement(sb, data.id)).refund).toMatchObject({ tx_hash: null })
      await advanceClock(sb, 5000)
      expect((await getSettlement(sb, data.id)).status).toBe('refunded')
      expect(await balanceOf(sb, source.id)).toMatchObject({ available_balance: '1000000.00', locked_balance: '0.00' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { createControlClient } from '../../src/client/control-client.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

const EXTERNAL = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'

let sb: TestSandbox
afterEach(() => sb?.close())

async function pay(amount = '1.00') {
  const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
  const res = await sb.api.post('/v1/payments').set(sb.auth()).send({ amount, currency: 'USDC', source_wallet: wallet.id, recipient: EXTERNAL }).expect(201)
  return { payment: res.body.data as { id: string; status: string }, wallet }
}
const balance = async (walletId: string) => (await sb.api.get(`/v1/wallets/${walletId}/balance`).set(sb.auth()).expect(200)).body.data
const snapshot = async () => (await sb.api.get('/_sandbox/snapshot').expect(200)).body.data

describe('GET /_sandbox/snapshot and POST /_sandbox/restore', () => {
  it('takes the whole state and puts it back: balances, payments, keys and rules as they were', async () => {
    sb = await startTestSandbox()
    const { payment, wallet } = await pay('10.00')
    await sb.api.post('/_sandbox/outcomes').send({ match: { network: 'polygon' }, outcome: 'failed' }).expect(201)
    const before = await balance(wallet.id)
    const taken = await snapshot()
    expect(taken).toMatchObject({ version: 1, taken_at: '2026-01-01T00:00:00.000Z' })
    expect(taken.accounts[0].payments).toHaveLength(1)

    // Everything that happens after the snapshot…
    await sb.api.post(`/_sandbox/payments/${payment.id}/complete`).expect(200)
    await pay('5.00')
    const key = (await sb.api.post('/_sandbox/keys').send({}).expect(201)).body.data.key
    await sb.api.delete('/_sandbox/outcomes').expect(200)

    // …is undone by the restore.
    const restored = await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    expect(restored.body.data).toEqual({ restored: true, accounts: 1, keys: 3, account_id: null })
    expect(await balance(wallet.id)).toEqual(before)
    const list = (await sb.api.get('/v1/payments').set(sb.auth()).expect(200)).body
    expect(list.data.map((p: { id: string; status: string }) => [p.id, p.status])).toEqual([[payment.id, 'pending']])
    expect((await sb.api.get('/_sandbox/accounts').query({ api_key: key }).expect(200)).body.data).toEqual([])
    expect((await sb.api.get('/_sandbox/outcomes').expect(200)).body.data).toHaveLength(1)
    const { taken_at: _a, ...state } = taken
    const { taken_at: _b, ...again } = await snapshot()
    // Everything but the generators' positions, which a restore forks so that ids are never reused.
    const withoutRng = (data: typeof state) => ({ ...data, accounts: data.accounts.map(({ rng_state: _r, ...account }: { rng_state: unknown }) => account) })
    expect(withoutRng(again)).toEqual(withoutRng(state))
    expect(again.accounts[0].rng_state).not.toEqual(state.accounts[0].rng_state)
  })

  it('holds an idempotency record\'s expiry as a timestamp, and restores the older form in ms since the epoch', async () => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'polygon', 'USDC')
    const body = { amount: '1.00', currency: 'USDC', source_wallet: wallet.id, recipient: EXTERNAL }
    const first = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'k-1').send(body).expect(201)
    const taken = await snapshot()
    const [record] = taken.accounts[0].idempotency
    expect(record).toMatchObject({ created_at: '2026-01-01T00:00:00.000Z', expires_at: '2026-01-02T00:00:00.000Z' })

    taken.accounts[0].idempotency = [{ ...record, expires_at: Date.parse(record.expires_at) }]
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    expect((await snapshot()).accounts[0].idempotency[0].expires_at).toBe('2026-01-02T00:00:00.000Z')
    const replay = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'k-1').send(body).expect(201)
    expect(replay.body.data.id).toBe(first.body.data.id)
    // It still expires after its 24 hours.
    await sb.sandbox.clock.advance(24 * 3600_000)
    const fresh = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'k-1').send(body).expect(201)
    expect(fresh.body.data.id).not.toBe(first.body.data.id)
  })

  it('never reuses an id after a restore, and stays deterministic', async () => {
    const run = async () => {
      sb = await startTestSandbox({ settle: 'instant' })
      const hook = (await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'http://127.0.0.1:9/unreachable' }).expect(201)).body.data
      const taken = await snapshot()
      const issued = new Set<string>()
      const collect = async () => {
        for (const p of (await sb.api.get('/v1/payments?limit=100').set(sb.auth()).expect(200)).body.data) issued.add(p.id)
        for (const d of (await sb.api.get('/_sandbox/webhooks/deliveries?limit=100').expect(200)).body.data) issued.add(d.id).add(d.event_id)
      }
      await pay()
      await pay()
      await collect()
      const before = new Set(issued)
      for (let round = 0; round < 2; round++) {
        await sb.api.post('/_sandbox/restore').send(taken).expect(200)
        const { payment } = await pay()
        expect(before.has(payment.id)).toBe(false)
        issued.clear()
        await collect()
        for (const id of issued) expect(before.has(id), id).toBe(false)
        for (const id of issued) before.add(id)
      }
      const ids = [...before].sort()
      await sb.close()
      return { ids, hook: hook.id }
    }
    const first = await run()
    const second = await run()
    expect(second).toEqual(first)
  })

  it('sets a manual clock to the time of the snapshot, also backwards, and resumes automatic settlement', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const { payment } = await pay()
    const taken = await snapshot()
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000 }).expect(200)
    expect((await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('completed')

    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    expect((await sb.api.get('/_sandbox/clock').expect(200)).body.data).toMatchObject({ mode: 'manual', now: '2026-01-01T00:00:00.000Z' })
    expect((await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('pending')
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 60_000 }).expect(200)
    expect((await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(200)).body.data.status).toBe('completed')
  })

  it('gives a real clock the offset that makes its now the time of the snapshot', async () => {
    sb = await startTestSandbox({ clock: 'real' })
    const taken = await snapshot()
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 3_600_000 }).expect(200)
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    const clock = (await sb.api.get('/_sandbox/clock').expect(200)).body.data
    expect(clock.mode).toBe('real')
    // Real time went on for a few ms meanwhile.
    expect(Date.parse(clock.now) - Date.parse(taken.taken_at)).toBeGreaterThanOrEqual(0)
    expect(Date.parse(clock.now) - Date.parse(taken.taken_at)).toBeLessThan(5_000)
    expect(Math.abs(clock.offset_ms)).toBeLessThan(5_000)

    await sb.api.post('/_sandbox/restore').send({ ...taken, taken_at: '2030-06-01T12:00:00.000Z' }).expect(200)
    const later = (await sb.api.get('/_sandbox/clock').expect(200)).body.data
    expect(Date.parse(later.now) - Date.parse('2030-06-01T12:00:00.000Z')).toBeLessThan(5_000)
  })

  it('refuses a taken_at that is not a timestamp, and changes nothing', async () => {
    sb = await startTestSandbox()
    const taken = await snapshot()
    const res = await sb.api.post('/_sandbox/restore').send({ ...taken, taken_at: 'yesterday' }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'taken_at' })
    expect((await sb.api.get('/_sandbox/clock').expect(200)).body.data.now).toBe('2026-01-01T00:00:00.000Z')
  })

  it('gives rules created after a restore new ids, though their generator starts again from the seed', async () => {
    sb = await startTestSandbox()
    const outcome = (await sb.api.post('/_sandbox/outcomes').send({ match: { network: 'polygon' }, outcome: 'failed' }).expect(201)).body.data
    const fault = (await sb.api.post('/_sandbox/faults').send({ fault: 'drop', match: { path: '/v1/payouts' } }).expect(201)).body.data
    const taken = await snapshot()
    await sb.close()

    sb = await startTestSandbox() // same seed: its generators are where the first sandbox's started
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
    const nextOutcome = (await sb.api.post('/_sandbox/outcomes').send({ match: { network: 'solana' }, outcome: 'failed' }).expect(201)).body.data
    const nextFault = (await sb.api.post('/_sandbox/faults').send({ fault: 'drop', match: { path: '/v1/wallets' } }).expect(201)).body.data
    expect(nextOutcome.id).not.toBe(outcome.id)
    expect(nextFault.id).not.toBe(fault.id)
    await sb.api.delete(`/_sandbox/outcomes/${outcome.id}`).expect(200)
    expect((await sb.api.get('/_sandbox/outcomes').expect(200)).body.data.map((rule: { id: string }) => rule.id)).toEqual([nextOutcome.id])
  })

  it('takes a snapshot larger than --body-limit', async () => {
    sb = await startTestSandbox({ bodyLimit: 1024 })
    const taken = await snapshot()
    expect(JSON.stringify(taken).length).toBeGreaterThan(1024)
    await sb.api.post('/_sandbox/restore').send(taken).expect(200)
  })

  it('refuses a document that is not a snapshot, and changes nothing', async () => {
    sb = await startTestSandbox()
    const { wallet } = await pay()
    const before = await snapshot()
    const restore = (body: unknown) => sb.api.post('/_sandbox/restore').send(body as object)

    const missing = await restore({ accounts: [], keys: [] }).expect(400)
    expect(missing.body.error).toMatchObject({ code: 'parameter_missing', param: 'version' })

    const badUnits = structuredClone(before)
    badUnits.accounts[0].wallets[0].available = '12.5'
    expect((await restore(badUnits).expect(400)).body.error).toMatchObject({ code: 'parameter_invalid', param: 'accounts[0].wallets[0].available' })

    const orphanKey = structuredClone(before)
    orphanKey.keys[0].account_id = 'acct_nobody'
    const orphan = await restore(orphanKey).expect(400)
    expect(orphan.body.error).toMatchObject({ code: 'parameter_invalid', param: 'keys[0].account_id' })
    expect(orphan.body.error.message).toContain("no account 'acct_nobody'")

    const lostSource = structuredClone(before)
    lostSource.accounts[0].wallets = lostSource.accounts[0].wallets.filter((w: { id: string }) => w.id !== wallet.id)
    expect((await restore(lostSource).expect(400)).body.error).toMatchObject({ code: 'parameter_invalid', param: 'accounts[0].payments[0].source' })

    const twice = structuredClone(before)
    twice.accounts[0].payments.push(structuredClone(twice.accounts[0].payments[0]))
    const repeated = await restore(twice).expect(400)
    expect(repeated.body.error).toMatchObject({ code: 'parameter_invalid', param: 'accounts[0].payments[1].id' })
    expect(repeated.body.error.message).toContain('appears twice')

    const lostItem = structuredClone(before)
    lostItem.accounts[0].payouts = [{ ...structuredClone(lostItem.accounts[0].payouts[0] ?? {}), id: 'po_x', object: 'payout', status: 'pending', source: wallet.id, currency: 'USDC', total_amount: '1.00', item_count: 1, payment_ids: ['pay_gone'], metadata: {}, created_at: before.taken_at, updated_at: before.taken_at }]
    const lost = await restore(lostItem)
    expect(lost.status, JSON.stringify(lost.body)).toBe(400)
    expect(lost.body.error).toMatchObject({ code: 'parameter_invalid', param: 'accounts[0].payouts[0].payment_ids' })

    await restore('not json at all').set('Content-Type', 'application/json').expect(400)
    const { taken_at: _a, ...state } = before
    const { taken_at: _b, ...after } = await snapshot()
    expect(after).toEqual(state)
  })

  it.each([
    ['faults is an object', { faults: {} }, 'control.faults'],
    ['faults is a number', { faults: 7 }, 'control.faults'],
    ['outcome_rules is false', { outcome_rules: false }, 'control.outcome_rules'],
    ['the screening list is not a list', { screening_flagged: { polygon: [] } }, 'control.screening_flagged'],
    ['a fault lacks its kind', { faults: [{ id: 'flt_1', match: {}, status: null, latency_ms: null, probability: 1, times: null, remaining: null }] }, 'control.faults[0].fault'],
  ])('refuses a control part of the wrong shape (%s) with 400 naming it, and the sandbox keeps working', async (_name, control, param) => {
    sb = await startTestSandbox()
    const before = await snapshot()
    const res = await sb.api.post('/_sandbox/restore').send({ ...before, control }).expect(400)
    expect(res.body.error.param).toBe(param)
    expect(['parameter_invalid', 'parameter_missing']).toContain(res.body.error.code)

    const { taken_at: _a, ...state } = before
    const { taken_at: _b, ...after } = await snapshot()
    expect(after).toEqual(state)
    await sb.api.get('/v1/wallets').set(sb.auth()).expect(200)
    await sb.api.delete('/_sandbox/faults').expect(200)
    await sb.api.post('/_sandbox/reset').send({}).expect(200)
  })

  it('works through the typed control client', async () => {
    sb = await startTestSandbox()
    const control = createControlClient({ baseUrl: sb.url })
    const taken = await control.snapshot()
    const { payment } = await pay()
    expect(await control.restore(taken)).toEqual({ restored: true, accounts: 1, keys: 3, account_id: null })
    await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(404)
  })

  it('needs the control token when one is set', async () => {
    sb = await startTestSandbox({ controlToken: 'secret-token' })
    expect((await sb.api.get('/_sandbox/snapshot').expect(401)).body.error.code).toBe('control_token_invalid')
    const taken = (await sb.api.get('/_sandbox/snapshot').set('Authorization', 'Bearer secret-token').expect(200)).body.data
    expect((await sb.api.post('/_sandbox/restore').send(taken).expect(401)).body.error.code).toBe('control_token_invalid')
    await sb.api.post('/_sandbox/restore').set('Authorization', 'Bearer secret-token').send(taken).expect(200)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import type { SandboxEvent } from '../../src/model/events.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import magic from '../../fixtures/magic.json' with { type: 'json' }

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const EVM_2 = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'
const magicAddress = (failureCode: string) => magic.find((m) => m.network === 'polygon' && m.failure_code === failureCode)!.address

let sb: TestSandbox
afterEach(() => sb?.close())

interface Payout {
  id: string
  status: string
  payment_ids: string[]
  updated_at: string
}

async function payout(recipients: string[], itemExtra: Record<string, unknown> = {}): Promise<Payout> {
  const source = await institutionalWallet(sb, 'polygon', 'USDC')
  const items = recipients.map((recipient) => ({ amount: '1.00', recipient, ...itemExtra }))
  return (await sb.api.post('/v1/payouts').set(sb.auth()).send({ source_wallet: source.id, currency: 'USDC', items }).expect(201)).body.data
}
const getPayout = async (id: string): Promise<Payout> => (await sb.api.get(`/v1/payouts/${id}`).set(sb.auth()).expect(200)).body.data
const status = async (id: string) => (await getPayout(id)).status
const control = (paymentId: string, action: 'process' | 'complete' | 'fail') => sb.api.post(`/_sandbox/payments/${paymentId}/${action}`).expect(200)
const advance = (ms: number) => sb.api.post('/_sandbox/clock/advance').send({ ms }).expect(200)
function recordEvents() {
  const events: SandboxEvent[] = []
  sb.sandbox.bus.on('event', (event) => events.push(event))
  return events
}
const payoutEvents = (events: SandboxEvent[]) => events.filter((e) => e.type.startsWith('payout.'))

describe('a payout follows its items (control calls)', () => {
  it('stays pending while every item is, is processing once one moves, and completes with the last item', async () => {
    sb = await startTestSandbox()
    const events = recordEvents()
    const { id, payment_ids: [a, b, c] } = await payout([EVM, EVM_2, EVM])
    expect(await status(id)).toBe('pending')
    await advance(1000)
    await control(a!, 'process')
    const processing = await getPayout(id)
    expect(processing).toMatchObject({ status: 'processing', updated_at: '2026-01-01T00:00:01.000Z' })
    await control(a!, 'complete')
    await control(b!, 'complete')
    expect(await status(id)).toBe('processing')
    await advance(1000)
    await control(c!, 'complete')
    expect(await getPayout(id)).toMatchObject({ status: 'completed', updated_at: '2026-01-01T00:00:02.000Z' })
    expect(payoutEvents(events).map((e) => e.type)).toEqual(['payout.created', 'payout.completed'])
    expect(events.at(-1)).toMatchObject({ type: 'payout.completed', data: { object: { id, object: 'payout', status: 'completed' } } })
  })

  it('is processing when one item failed while another is still pending', async () => {
    sb = await startTestSandbox()
    const { id, payment_ids: [a] } = await payout([EVM, EVM])
    await control(a!, 'fail')
    expect(await status(id)).toBe('processing')
  })

  it('fails when every item fails, and the funds return to the source', async () => {
    sb = await startTestSandbox()
    const events = recordEvents()
    const { id, payment_ids } = await payout([EVM, EVM_2])
    for (const paymentId of payment_ids) await control(paymentId, 'fail')
    expect(await status(id)).toBe('failed')
    expect(payoutEvents(events).map((e) => e.type)).toEqual(['payout.created', 'payout.failed'])
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const balance = (await sb.api.get(`/v1/wallets/${source.id}/balance`).set(sb.auth()).expect(200)).body.data
    expect(balance).toMatchObject({ available_balance: '1000000.00', locked_balance: '0.00' })
  })

  it('is partially_failed when some items complete and others fail', async () => {
    sb = await startTestSandbox()
    const events = recordEvents()
    const { id, payment_ids: [a, b] } = await payout([EVM, EVM_2])
    await control(a!, 'complete')
    await control(b!, 'fail')
    expect(await status(id)).toBe('partially_failed')
    expect(payoutEvents(events).map((e) => e.type)).toEqual(['payout.created', 'payout.partially_failed'])
  })
})

describe('a payout under automatic settlement', () => {
  it('ends partially_failed when magic addresses fail some items, with each item’s own events', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const events = recordEvents()
    const { id, payment_ids } = await payout([EVM, magicAddress('screening_rejected'), magicAddress('network_congestion')])
    await advance(50)
    expect(await status(id)).toBe('processing')
    await advance(10_000)
    expect(await status(id)).toBe('partially_failed')
    const ofPayment = (paymentId: string) => events.filter((e) => (e.data.object as { id: string }).id === paymentId).map((e) => e.type)
    expect(payment_ids.map(ofPayment)).toEqual([
      ['payment.created', 'payment.processing', 'payment.succeeded'],
      ['payment.created', 'payment.failed'],
      ['payment.created', 'payment.processing', 'payment.failed'],
    ])
    // The payout is announced before its items, and its final event comes after the last item's.
    expect(events[0]).toMatchObject({ type: 'payout.created', data: { object: { id, status: 'pending', payment_ids } } })
    expect(events.slice(1, 4).map((e) => [e.type, (e.data.object as { payout_id: string }).payout_id])).toEqual(payment_ids.map(() => ['payment.created', id]))
    expect(events.at(-1)).toMatchObject({ type: 'payout.partially_failed', data: { object: { id, status: 'partially_failed' } } })
    expect(payoutEvents(events)).toHaveLength(2)
  })

  it('fails as a whole when an outcome rule fails every item', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    await sb.api.post('/_sandbox/outcomes').send({ match: { network: 'polygon' }, outcome: 'failed', failure_code: 'recipient_rejected' }).expect(201)
    const { id } = await payout([EVM, EVM_2])
    await advance(10_000)
    expect(await status(id)).toBe('failed')
  })

  it('stays pending while its items wait (sandbox_outcome pending), until control calls settle them', async () => {
    sb = await startTestSandbox({ settle: 'auto' })
    const { id, payment_ids } = await payout([EVM, EVM_2], { metadata: { sandbox_outcome: 'pending' } })
    await advance(10_000)
    expect(await status(id)).toBe('pending')
    for (const paymentId of payment_ids) await control(paymentId, 'complete')
    expect(await status(id)).toBe('completed')
  })

  it('completes under settle instant', async () => {
    sb = await startTestSandbox({ settle: 'instant' })
    const done = new Promise<void>((resolve) => sb.sandbox.bus.on('event', (e) => e.type === 'payout.completed' && resolve()))
    const { id } = await payout([EVM, EVM_2, EVM])
    await done
    expect(await status(id)).toBe('completed')
  })
})

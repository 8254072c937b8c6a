import { describe, expect, it } from 'vitest'
import { createBus } from '../../src/events/bus.js'
import { RecentPayments } from '../../src/control/recent-payments.js'
import type { SandboxEvent } from '../../src/model/events.js'

const event = (type: SandboxEvent['type'], objectId: string, accountId: string): SandboxEvent => ({
  id: `evt_${objectId}_${type}`, object: 'event', type, created_at: '2026-01-01T00:00:00.000Z', api_version: 'v1', account_id: accountId, data: { object: { id: objectId } },
})

describe('RecentPayments (which account a control call’s payment is in)', () => {
  it('knows the account of a payment from its payment.created event, and nothing of other objects', () => {
    const bus = createBus()
    const recent = new RecentPayments(bus)
    bus.emit('event', event('payment.created', 'pay_a', 'acct_1'))
    bus.emit('event', event('payment.created', 'pay_b', 'acct_2'))
    bus.emit('event', event('payment.succeeded', 'pay_d', 'acct_2'))
    bus.emit('event', event('order.created', 'ord_c', 'acct_3'))
    expect([recent.accountOf('pay_a'), recent.accountOf('pay_b'), recent.accountOf('ord_c'), recent.accountOf('pay_d')]).toEqual(['acct_1', 'acct_2', undefined, undefined])
  })

  it('keeps the latest 4,096 to 8,192 payments: an older generation is dropped whole', () => {
    const bus = createBus()
    const recent = new RecentPayments(bus)
    for (let i = 0; i < 8192; i++) bus.emit('event', event('payment.created', `pay_${i}`, `acct_${i % 7}`))
    // A payment's later events are not noted again.
    bus.emit('event', event('payment.processing', 'pay_8191', 'acct_1'))
    expect([recent.accountOf('pay_0'), recent.accountOf('pay_4095'), recent.accountOf('pay_4096'), recent.accountOf('pay_8191')]).toEqual(['acct_0', 'acct_0', 'acct_1', 'acct_1'])
    bus.emit('event', event('payment.created', 'pay_8192', 'acct_2'))
    expect([recent.accountOf('pay_0'), recent.accountOf('pay_4095'), recent.accountOf('pay_4096'), recent.accountOf('pay_8192')]).toEqual([undefined, undefined, 'acct_1', 'acct_2'])
  })

  it('notes nothing while the sandbox has one account (a walk of one account is one look-up), and again once it has more', () => {
    const bus = createBus()
    let accounts = 1
    const recent = new RecentPayments(bus, () => accounts)
    bus.emit('event', event('payment.created', 'pay_a', 'acct_1'))
    accounts = 2
    bus.emit('event', event('payment.created', 'pay_b', 'acct_2'))
    expect([recent.accountOf('pay_a'), recent.accountOf('pay_b')]).toEqual([undefined, 'acct_2'])
  })
})

import type { Page } from 'playwright-core'
import { afterEach, describe, expect, it } from 'vitest'
import { EVENT_TYPES } from '../../src/model/events.js'
import { cellText, pagerText, row, useDashboardBrowser, WAIT } from '../helpers/dashboard-browser.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** The dashboard's Events view in Chromium: GET /_sandbox/events, newest first, live, by type. */

const ACCOUNT = 'acct_sandboxDefaultAccount000'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

interface LoggedEvent {
  id: string
  type: string
  created_at: string
  data: { object: { id: string } }
}

describe('the dashboard’s Events view in Chromium', () => {
  const browser = useDashboardBrowser()
  let sb: TestSandbox | undefined

  afterEach(async () => {
    await browser.finish()
    await sb?.close()
    sb = source = undefined
  })

  let source: { id: string } | undefined
  async function pay() {
    source ??= await institutionalWallet(sb!, 'polygon', 'USDC')
    const res = await sb!.api.post('/v1/payments').set(sb!.auth()).send({ amount: '1.00', currency: 'USDC', source_wallet: source.id, recipient: EVM }).expect(201)
    return res.body.data as { id: string }
  }
  const fail = (id: string, headers: Record<string, string> = {}) => sb!.api.post(`/_sandbox/payments/${id}/fail`).set(headers).send({}).expect(200)
  const logged = async (query: Record<string, string> = {}) => (await sb!.api.get('/_sandbox/events').query({ account_id: ACCOUNT, ...query }).expect(200)).body.data as LoggedEvent[]

  const eventIds = (page: Page) => page.locator('#events tbody tr[data-id]').evaluateAll((rows) => rows.map((tr) => tr.getAttribute('data-id')))
  const state = (page: Page) => page.locator('#events-state').getAttribute('data-state')
  async function openLive(controlToken?: string) {
    const page = await browser.open(sb!.url)
    if (controlToken) {
      await page.locator('#token-input').fill(controlToken)
      await page.getByRole('button', { name: 'Continue' }).click()
    }
    await expect.poll(() => state(page), WAIT).toBe('live')
    return page
  }

  it('lists the account’s events newest first: time, type, event id and object id', async () => {
    sb = await startTestSandbox()
    const first = await pay()
    const second = await pay()
    await fail(first.id)
    const page = await openLive()
    const events = await logged()
    expect(events.map((event) => event.type)).toEqual(['payment.created', 'payment.created', 'payment.failed'])
    expect(await eventIds(page)).toEqual(events.map((event) => event.id).reverse())
    const failed = events[2]!
    expect(await cellText(page, 'events', failed.id, 'type')).toBe('payment.failed')
    expect(await cellText(page, 'events', failed.id, 'object')).toBe(first.id)
    expect(await row(page, 'events', failed.id).textContent()).toContain(failed.created_at)
    expect(await cellText(page, 'events', events[1]!.id, 'object')).toBe(second.id)
    expect(await pagerText(page, 'events')).toBe('3 rows')
  })

  it('shows a new event at the top as soon as it is logged, without a reload or a click', async () => {
    sb = await startTestSandbox()
    const page = await openLive()
    expect(await page.locator('#events tr.empty').textContent()).toBe('No events yet.')
    const payment = await pay()
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(1)
    expect(await page.locator('#events tbody tr[data-id]').first().locator('[data-field="object"]').textContent()).toBe(payment.id)
    await fail(payment.id)
    await expect.poll(() => page.locator('#events tbody tr[data-id]').first().locator('[data-field="type"]').textContent(), WAIT).toBe('payment.failed')
    expect(await eventIds(page)).toEqual((await logged()).map((event) => event.id).reverse())
  })

  it('filters by type, offering only the types the sandbox emits, and shows the API’s error', async () => {
    sb = await startTestSandbox()
    const [first, second] = [await pay(), await pay()]
    await fail(first.id)
    const page = await openLive()
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(3)
    // The page's event types are the sandbox's own list (written by the server, not a copy).
    expect(await page.evaluate(`import('/_sandbox/ui/event-types.js').then(({ EVENT_TYPES }) => EVENT_TYPES)`)).toEqual([...EVENT_TYPES])
    const offered = await page.locator('#events-type option').evaluateAll((options) => options.map((option) => option.getAttribute('value')))
    const resources = [...new Set(EVENT_TYPES.map((type) => type.split('.')[0]))]
    expect(offered.sort()).toEqual(['*', ...EVENT_TYPES, ...resources.map((resource) => `${resource}.*`)].sort())

    const filter = page.locator('#events-type')
    await filter.selectOption('payment.failed')
    await expect.poll(() => eventIds(page), WAIT).toEqual((await logged({ type: 'payment.failed' })).map((event) => event.id))
    // Still live under the filter: a new match shows at the top, a new payment.created does not.
    await pay()
    await fail(second.id)
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(2)
    expect(await page.locator('#events tbody tr[data-id]').first().locator('[data-field="object"]').textContent()).toBe(second.id)
    await filter.selectOption('order.*')
    await expect.poll(() => page.locator('#events tr.empty').textContent(), WAIT).toBe('No order.* events yet.')
    await filter.selectOption('payment.*')
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(5)

    // A type the sandbox does not know is never offered; were one asked for, the API's error shows
    // in the view, and goes when another type is chosen.
    await page.evaluate(`(() => { const select = document.getElementById('events-type'); select.append(new Option('refund.*', 'refund.*')); select.value = 'refund.*'; select.dispatchEvent(new Event('change')) })()`)
    const problem = page.locator('#events-error')
    await expect.poll(() => problem.textContent(), WAIT).toMatch(/^parameter_invalid: type takes event types .*got "refund\.\*"/)
    await filter.selectOption('payment.*')
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(5)
    expect(await problem.isHidden()).toBe(true)
  })

  it('shows an event’s JSON, pretty-printed, on a click on its row, and hides it on another', async () => {
    sb = await startTestSandbox()
    const payment = await pay()
    await fail(payment.id)
    const page = await openLive()
    const [created, failed] = await logged()
    await row(page, 'events', failed!.id).click()
    const json = page.locator('#events tr.event-json pre')
    await expect.poll(() => json.textContent(), WAIT).toBe(JSON.stringify(failed, null, 2))
    expect(await page.locator('#events tr[data-id] + tr.event-json').count()).toBe(1)
    expect(await row(page, 'events', failed!.id).getByRole('button').getAttribute('aria-expanded')).toBe('true')

    // Another row's button shows that event instead; a second click hides it.
    await row(page, 'events', created!.id).getByRole('button', { name: 'Show' }).click()
    await expect.poll(() => json.textContent(), WAIT).toBe(JSON.stringify(created, null, 2))
    await row(page, 'events', created!.id).click()
    await expect.poll(() => json.count(), WAIT).toBe(0)
  })

  it('stops reading when Auto-refresh is off, closing its long poll, and follows again when it is back on', async () => {
    sb = await startTestSandbox()
    const page = await openLive()
    const open = new Set<unknown>()
    page.on('request', (request) => request.url().includes('/_sandbox/events') && open.add(request))
    page.on('requestfinished', (request) => open.delete(request))
    page.on('requestfailed', (request) => open.delete(request))
    const payment = await pay()
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(1)
    await expect.poll(() => open.size, WAIT).toBe(1)

    await page.locator('#auto-refresh').uncheck()
    await expect.poll(() => open.size, WAIT).toBe(0)
    expect(await state(page)).toBe('paused')
    await fail(payment.id)
    await page.locator('#auto-refresh').check()
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(2)
    expect(await state(page)).toBe('live')
  })

  it('reads the log again after a reset: at once from the page, on Refresh when made elsewhere', async () => {
    sb = await startTestSandbox()
    await pay()
    const page = await openLive()
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(1)
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: 'Reset account' }).click()
    await expect.poll(() => page.locator('#events tr.empty').textContent(), WAIT).toBe('No events yet.')

    await pay()
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(1)
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_sandbox_default_key' }).expect(200)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => page.locator('#events tr.empty').textContent(), WAIT).toBe('No events yet.')
    // Live again from the empty log.
    const payment = await pay()
    await expect.poll(() => page.locator('#events tbody tr[data-id] [data-field="object"]').allTextContents(), WAIT).toEqual([payment.id])
    expect(await page.locator('#events-error').isHidden()).toBe(true)
  })

  it('keeps the newest 100 of a long log and says how many events the log let go', async () => {
    sb = await startTestSandbox({ eventLogLimit: 150 })
    const payments = []
    for (let i = 0; i < 160; i++) payments.push(await pay())
    const page = await openLive()
    await expect.poll(() => pagerText(page, 'events'), WAIT).toBe('100 rows · showing 1–10')
    const newest = (await logged({ after: (await logged({ limit: '50' })).at(-1)!.id })).map((event) => event.id)
    expect(newest).toHaveLength(100)
    expect(await eventIds(page)).toEqual(newest.reverse().slice(0, 10))
    expect(await page.locator('#events-note').textContent()).toBe(
      'The newest 100 of the 150 events read are kept here. The log has let 10 older events of this account go: it keeps the newest --event-log-limit (default 10,000) per account.',
    )
    await page.locator('[data-pager="events"]').getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => pagerText(page, 'events'), WAIT).toBe('100 rows · showing 11–20')
    expect(await page.locator('#events tbody tr[data-id] [data-field="object"]').first().textContent()).toBe(payments[149]!.id)
  })

  it('says it lost the sandbox while the sandbox is down, not live, and is live again when it is back', async () => {
    sb = await startTestSandbox()
    await pay()
    const page = await openLive()
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(1)
    const { port } = new URL(sb.url)
    await sb.close()
    sb = undefined
    await expect.poll(() => state(page), WAIT).toBe('lost')
    expect(await page.locator('#events-state').textContent()).toBe('lost the sandbox: trying again…')
    expect(await page.locator('#events-error').textContent()).toBe('no_answer: The sandbox did not answer: is it still running?')
    // Back on the same port (a restart, the same seed: the same ids again): its log read from the start, live again, the error gone.
    sb = await startTestSandbox({ port: Number(port) })
    source = undefined
    const payment = await pay()
    // Its retries come every 2 s.
    await expect.poll(() => state(page), { ...WAIT, timeout: 8000 }).toBe('live')
    await expect.poll(() => page.locator('#events tbody tr[data-id] [data-field="object"]').allTextContents(), WAIT).toEqual([payment.id])
    expect(await page.locator('#events-error').isHidden()).toBe(true)
  })

  it('with --control-token, reads the events with the token given', async () => {
    sb = await startTestSandbox({ controlToken: 'dashboard-secret' })
    const payment = await pay()
    const page = await openLive('dashboard-secret')
    await expect.poll(() => page.locator('#events tbody tr[data-id] [data-field="object"]').allTextContents(), WAIT).toEqual([payment.id])
    await fail(payment.id, { Authorization: 'Bearer dashboard-secret' })
    await expect.poll(() => eventIds(page), WAIT).toHaveLength(2)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import { cellText, launchChromium, row, useDashboardBrowser, WAIT } from '../helpers/dashboard-browser.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

/** The dashboard's clicks and its control token, in Chromium (the lists: dashboard-views.test.ts). */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('the dashboard in Chromium', () => {
  const browser = useDashboardBrowser()
  let sb: TestSandbox | undefined
  let receiver: WebhookReceiver | undefined

  afterEach(async () => {
    await browser.finish()
    await receiver?.close()
    await sb?.close()
    receiver = sb = undefined
  })

  const open = () => browser.open(sb!.url)

  async function createPayment(metadata: Record<string, string> = {}) {
    const source = await institutionalWallet(sb!, 'polygon', 'USDC')
    const res = await sb!.api.post('/v1/payments').set(sb!.auth()).send({ amount: '12.50', currency: 'USDC', source_wallet: source.id, recipient: EVM, metadata }).expect(201)
    return res.body.data as { id: string; status: string }
  }
  const paymentStatus = async (id: string) => (await sb!.api.get(`/v1/payments/${id}`).set(sb!.auth()).expect(200)).body.data.status

  it("shows the clock, the account's keys and the first page of its wallets", async () => {
    sb = await startTestSandbox()
    const page = await open()
    await expect.poll(() => page.locator('#wallets tbody tr[data-id]').count(), WAIT).toBe(10)
    expect(await page.locator('#clock-mode').textContent()).toBe('manual')
    expect(await page.locator('#clock-now').textContent()).toBe('2026-01-01T00:00:00.000Z')
    expect(await page.locator('#keys').textContent()).toContain('sk_test_sandbox_default_key')
  })

  it("shows the selected account's clock when it is ahead of the sandbox's, and hides it when it is not", async () => {
    sb = await startTestSandbox()
    const page = await open()
    await page.locator('#wallets tbody tr[data-id]').first().waitFor()
    expect(await page.locator('#account-clock').isHidden()).toBe(true)
    await sb.api.post('/_sandbox/clock/advance').send({ ms: 5_400_000, api_key: 'sk_test_sandbox_default_key' }).expect(200)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => page.locator('#account-clock').isVisible(), WAIT).toBe(true)
    expect(await page.locator('#account-clock-now').textContent()).toBe('2026-01-01T01:30:00.000Z')
    expect(await page.locator('#account-clock-offset').textContent()).toBe('(1 h 30 min ahead of the sandbox)')
    expect(await page.locator('#clock-now').textContent()).toBe('2026-01-01T00:00:00.000Z')
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_sandbox_default_key' }).expect(200)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => page.locator('#account-clock').isHidden(), WAIT).toBe(true)
  })

  it('lists a payment created over /v1, and completes it with a click', async () => {
    sb = await startTestSandbox()
    const page = await open()
    await page.locator('#wallets tbody tr[data-id]').first().waitFor()
    const payment = await createPayment()
    await page.getByRole('button', { name: 'Refresh' }).click()
    expect(await cellText(page, 'payments', payment.id, 'status')).toBe('pending')

    await row(page, 'payments', payment.id).getByRole('button', { name: 'Complete' }).click()
    await expect.poll(() => cellText(page, 'payments', payment.id, 'status'), WAIT).toBe('completed')
    expect(await paymentStatus(payment.id)).toBe('completed')
    expect(await page.locator('#message').textContent()).toBe(`Payment ${payment.id} is now completed.`)
    expect(await row(page, 'payments', payment.id).getByRole('button').count()).toBe(0)
  })

  it('fails a payment with a click, and deposits into a wallet through the form', async () => {
    sb = await startTestSandbox()
    const page = await open()
    await page.locator('#wallets tbody tr[data-id]').first().waitFor()
    const payment = await createPayment()
    await page.getByRole('button', { name: 'Refresh' }).click()
    await row(page, 'payments', payment.id).getByRole('button', { name: 'Fail' }).click()
    await expect.poll(() => cellText(page, 'payments', payment.id, 'status'), WAIT).toBe('failed')
    expect(await paymentStatus(payment.id)).toBe('failed')

    const wallet = await institutionalWallet(sb, 'solana', 'SOL')
    expect(wallet.balance).toBe('5000.00')
    await page.locator('#deposit-wallet').selectOption(wallet.id)
    await page.locator('#deposit-amount').fill('2.5')
    await page.getByRole('button', { name: 'Deposit' }).click()
    await expect.poll(() => cellText(page, 'wallets', wallet.id, 'total'), WAIT).toBe('5,002.50')
    expect(await cellText(page, 'wallets', wallet.id, 'available')).toBe('5,002.50')
    expect((await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)).body.data.balance).toBe('5002.50')

    // A refused amount shows the API's own message and changes nothing.
    await page.locator('#deposit-amount').fill('-1')
    await page.getByRole('button', { name: 'Deposit' }).click()
    await expect.poll(() => page.locator('#message.error').textContent(), WAIT).toMatch(/^parameter_invalid: amount must be a decimal string/)
    expect((await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)).body.data.balance).toBe('5002.50')
  })

  it('reads only through the control API, so injected faults and the rate limit never reach it', async () => {
    sb = await startTestSandbox({ errorRate: 1, rateLimit: 1 })
    const account = (await sb.api.get('/_sandbox/accounts?api_key=sk_test_sandbox_default_key').expect(200)).body.data[0] as { id: string }
    const requested: string[] = []
    const page = await browser.open(sb.url, { requests: requested })
    await expect.poll(() => page.locator('#wallets tbody tr[data-id]').count(), WAIT).toBe(10)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => requested.filter((path) => path.endsWith('/payments')).length, WAIT).toBeGreaterThanOrEqual(2)
    expect(await page.locator('#message').isHidden()).toBe(true)
    expect(requested.filter((path) => !path.startsWith('/_sandbox/'))).toEqual([])
    for (const list of ['wallets', 'balances', 'payments', 'payouts', 'webhooks', 'whitelisted_addresses']) expect(requested).toContain(`/_sandbox/accounts/${account.id}/${list}`)
    for (const path of ['/_sandbox/webhooks/deliveries', '/_sandbox/outcomes', '/_sandbox/faults', '/_sandbox/requests']) expect(requested).toContain(path)
    // The key's one request per second is still there: the failure is the injected 503, not a 429.
    expect((await sb.api.get('/v1/wallets').set(sb.auth())).status).toBe(503)
  })

  it('advances the sandbox clock from the page', async () => {
    sb = await startTestSandbox()
    const page = await open()
    await page.locator('#advance-ms').fill('60000')
    await page.getByRole('button', { name: 'Advance', exact: true }).click()
    await expect.poll(() => page.locator('#clock-now').textContent(), WAIT).toBe('2026-01-01T00:01:00.000Z')
    await page.getByRole('button', { name: '+1 h' }).click()
    await expect.poll(() => page.locator('#clock-now').textContent(), WAIT).toBe('2026-01-01T01:01:00.000Z')
    expect((await sb.api.get('/_sandbox/clock').expect(200)).body.data.now).toBe('2026-01-01T01:01:00.000Z')
  })

  it("shows the account's webhook deliveries and redelivers one with a click", async () => {
    sb = await startTestSandbox()
    receiver = await startWebhookReceiver({ respond: () => 500 })
    await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url, events: ['payment.created'] }).expect(201)
    await createPayment()
    await receiver.waitFor(1)
    await sb.sandbox.webhooks.idle()
    const [delivery] = (await sb.api.get('/_sandbox/webhooks/deliveries').expect(200)).body.data as Array<{ id: string }>

    const page = await open()
    expect(await cellText(page, 'deliveries', delivery!.id, 'attempts')).toBe('1')
    expect(await cellText(page, 'deliveries', delivery!.id, 'status')).toBe('pending')
    await row(page, 'deliveries', delivery!.id).getByRole('button', { name: 'Redeliver' }).click()
    await expect.poll(() => cellText(page, 'deliveries', delivery!.id, 'attempts'), WAIT).toBe('2')
    expect(receiver.received).toHaveLength(2)
    expect(receiver.received[1]!.headers['webhook-id']).toBe(receiver.received[0]!.headers['webhook-id'])
    expect(await page.locator('#message').textContent()).toBe(`Delivery ${delivery!.id} sent again: 2 attempt(s), pending.`)

    // Once the receiver answers 2xx, a redelivery makes the delivery succeed.
    receiver.respond = () => 200
    await row(page, 'deliveries', delivery!.id).getByRole('button', { name: 'Redeliver' }).click()
    await expect.poll(() => cellText(page, 'deliveries', delivery!.id, 'status'), WAIT).toBe('succeeded')
    expect(await cellText(page, 'deliveries', delivery!.id, 'attempts')).toBe('3')
  })

  it('shows names as text, never as markup', async () => {
    sb = await startTestSandbox()
    const name = '<img src=x onerror="document.title=\'owned\'">'
    const created = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name, currency: 'USDC', network: 'polygon' }).expect(201)
    const page = await open()
    await expect.poll(() => row(page, 'wallets', created.body.data.id).locator('td').first().textContent(), WAIT).toBe(name)
    expect(await page.locator('#wallets img').count()).toBe(0)
    expect(await page.title()).toBe('wallet-sandbox dashboard')
  })

  it('resets the selected account after a confirmation', async () => {
    sb = await startTestSandbox()
    const page = await open()
    await page.locator('#wallets tbody tr[data-id]').first().waitFor()
    const payment = await createPayment()
    page.once('dialog', (dialog) => void dialog.accept())
    await page.getByRole('button', { name: 'Reset account' }).click()
    await expect.poll(() => page.locator('#message').textContent(), WAIT).toMatch(/is back to its seeded state\.$/)
    await sb.api.get(`/v1/payments/${payment.id}`).set(sb.auth()).expect(404)
    await expect.poll(() => row(page, 'payments', payment.id).count(), WAIT).toBe(0)
  })

  it('with --control-token, asks for the token once and keeps it for the browser session', async () => {
    sb = await startTestSandbox({ controlToken: 'dashboard-secret' })
    const page = await open()
    const form = page.locator('#token-form')
    await form.waitFor()
    expect(await page.locator('#content').isHidden()).toBe(true)

    await page.locator('#token-input').fill('wrong-token')
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => page.locator('#message').textContent(), WAIT).toBe('The sandbox refused that control token.')
    expect(await form.isVisible()).toBe(true)

    await page.locator('#token-input').fill('dashboard-secret')
    await page.getByRole('button', { name: 'Continue' }).click()
    await page.locator('#wallets tbody tr[data-id]').first().waitFor()
    expect(await form.isHidden()).toBe(true)

    // Kept for the session: a reload does not ask again, and the page still works.
    await page.reload()
    await page.locator('#wallets tbody tr[data-id]').first().waitFor()
    expect(await form.isHidden()).toBe(true)
    await page.locator('#advance-ms').fill('1000')
    await page.getByRole('button', { name: 'Advance', exact: true }).click()
    await expect.poll(() => page.locator('#clock-now').textContent(), WAIT).toBe('2026-01-01T00:00:01.000Z')

    // A new browser session asks again.
    await browser.finish()
    const fresh = await open()
    await fresh.locator('#token-form').waitFor()
  })

  it('with --control-token, keeps the header controls that change the sandbox inactive until the token is given', async () => {
    sb = await startTestSandbox({ controlToken: 'dashboard-secret' })
    const page = await open()
    await page.locator('#token-form').waitFor()
    const controls = ['Advance', '+1 s', '+1 min', '+1 h', '+1 day', 'Reset account', 'Reset everything'].map((name) => page.getByRole('button', { name, exact: true }))
    const disabled = () => Promise.all(controls.map((control) => control.isDisabled()))
    expect(await disabled()).toEqual(controls.map(() => true))
    expect(await page.locator('#advance-ms').isDisabled()).toBe(true)
    // Clicking an inactive control does nothing (force: past playwright's own check that it is enabled).
    await page.getByRole('button', { name: '+1 h' }).click({ force: true })
    expect((await sb.api.get('/_sandbox/clock').set('Authorization', 'Bearer dashboard-secret').expect(200)).body.data.now).toBe('2026-01-01T00:00:00.000Z')

    // A refused token leaves them inactive; the right one turns them on.
    await page.locator('#token-input').fill('wrong-token')
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(() => page.locator('#message').textContent(), WAIT).toBe('The sandbox refused that control token.')
    expect(await disabled()).toEqual(controls.map(() => true))
    await page.locator('#token-input').fill('dashboard-secret')
    await page.getByRole('button', { name: 'Continue' }).click()
    await expect.poll(disabled, WAIT).toEqual(controls.map(() => false))
    await page.getByRole('button', { name: '+1 h' }).click()
    await expect.poll(() => page.locator('#clock-now').textContent(), WAIT).toBe('2026-01-01T01:00:00.000Z')
  })

  it('without --control-token, turns the header controls on as soon as the sandbox answered', async () => {
    sb = await startTestSandbox()
    const page = await open()
    await expect.poll(() => page.getByRole('button', { name: 'Reset everything' }).isDisabled(), WAIT).toBe(false)
    expect(await page.getByRole('button', { name: 'Advance', exact: true }).isDisabled()).toBe(false)
    expect(await page.locator('#token-form').isHidden()).toBe(true)
  })

  it('fails, never skips, without Chromium, and says how to install it', async () => {
    await expect(launchChromium('/nonexistent/chromium')).rejects.toThrow(
      "The dashboard's browser tests drive Chromium at /nonexistent/chromium, which is missing. Install it (Debian or Ubuntu: `sudo apt-get install chromium`) and run the tests again; .ci/run installs it by itself.",
    )
  })
})

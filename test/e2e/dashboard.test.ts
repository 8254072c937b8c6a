import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core. Without
 * /usr/bin/chromium (`apt-get install chromium`) the file is skipped locally; CI installs it
 * (.ci/run), and there a missing browser fails instead.
 */

const CHROMIUM = '/usr/bin/chromium'
const HAS_CHROMIUM = existsSync(CHROMIUM)
const RUN = HAS_CHROMIUM || process.env.CI !== undefined
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const WAIT = { timeout: 5000, interval: 50 }

if (!RUN) it.skip(`the dashboard in a browser: skipped, ${CHROMIUM} is missing (apt-get install chromium)`, () => {})

describe.runIf(RUN)('the dashboard in Chromium', () => {
  let browser: Browser
  let sb: TestSandbox | undefined
  let context: BrowserContext | undefined
  let receiver: WebhookReceiver | undefined
  let pageErrors: string[]

  beforeAll(async () => {
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
  }, 30_000)
  afterAll(() => browser?.close())

  afterEach(async () => {
    await context?.close()
    await receiver?.close()
    await sb?.close()
    context = receiver = sb = undefined
    // Script errors and content-security-policy violations fail the test that caused them.
    expect(pageErrors).toEqual([])
  })

  /** A fresh browser session (its own sessionStorage) on the dashboard. */
  async function open(): Promise<Page> {
    pageErrors = []
    context ??= await browser.newContext()
    const page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    page.on('console', (message) => {
      if (/Content.Security.Policy|Uncaught/i.test(message.text())) pageErrors.push(message.text())
    })
    await page.goto(`${sb!.url}/_sandbox/ui`)
    return page
  }

  const row = (page: Page, table: string, id: string) => page.locator(`#${table} tr[data-id="${id}"]`)
  const cellText = (page: Page, table: string, id: string, field: string) => row(page, table, id).locator(`[data-field="${field}"]`).textContent({ timeout: 5000 })

  async function createPayment(metadata: Record<string, string> = {}) {
    const source = await institutionalWallet(sb!, 'polygon', 'USDC')
    const res = await sb!.api.post('/v1/payments').set(sb!.auth()).send({ amount: '12.50', currency: 'USDC', source_wallet: source.id, recipient: EVM, metadata }).expect(201)
    return res.body.data as { id: string; status: string }
  }
  const paymentStatus = async (id: string) => (await sb!.api.get(`/v1/payments/${id}`).set(sb!.auth()).expect(200)).body.data.status

  it("shows the clock and the default account's wallets with their balances", async () => {
    sb = await startTestSandbox()
    const page = await open()
    const { body } = await sb.api.get('/v1/wallets?limit=100').set(sb.auth()).expect(200)
    const wallets = body.data as Array<{ id: string; balance: string; currency: string }>
    await expect.poll(() => page.locator('#wallets tbody tr[data-id]').count(), WAIT).toBe(wallets.length)
    expect(await cellText(page, 'wallets', wallets[0]!.id, 'balance')).toBe(`${wallets[0]!.balance} ${wallets[0]!.currency}`)
    expect(await page.locator('#clock-mode').textContent()).toBe('manual')
    expect(await page.locator('#clock-now').textContent()).toBe('2026-01-01T00:00:00.000Z')
    expect(await page.locator('#keys').textContent()).toContain('sk_test_sandbox_default_key')
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
    await page.locator('#deposit-wallet').selectOption(wallet.id)
    await page.locator('#deposit-amount').fill('2.5')
    await page.getByRole('button', { name: 'Deposit' }).click()
    const expected = (BigInt(wallet.balance.replace('.', '')) + 250n).toString()
    const balance = `${expected.slice(0, -2)}.${expected.slice(-2)}`
    await expect.poll(() => cellText(page, 'wallets', wallet.id, 'balance'), WAIT).toBe(`${balance} SOL`)
    expect((await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)).body.data.balance).toBe(balance)

    // A refused amount shows the API's own message and changes nothing.
    await page.locator('#deposit-amount').fill('-1')
    await page.getByRole('button', { name: 'Deposit' }).click()
    await expect.poll(() => page.locator('#message.error').textContent(), WAIT).toMatch(/^parameter_invalid: amount must be a decimal string/)
    expect((await sb.api.get(`/v1/wallets/${wallet.id}`).set(sb.auth()).expect(200)).body.data.balance).toBe(balance)
  })

  it('reads only through the control API, so injected faults and the rate limit never reach it', async () => {
    sb = await startTestSandbox({ errorRate: 1, rateLimit: 1 })
    const account = (await sb.api.get('/_sandbox/accounts?api_key=sk_test_sandbox_default_key').expect(200)).body.data[0] as { id: string }
    const wallets = (await sb.api.get(`/_sandbox/accounts/${account.id}/wallets?limit=100`).expect(200)).body.data as Array<{ id: string }>
    pageErrors = []
    context = await browser.newContext()
    const requested: string[] = []
    context.on('request', (request) => requested.push(new URL(request.url()).pathname))
    const page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${sb.url}/_sandbox/ui`)
    await expect.poll(() => page.locator('#wallets tbody tr[data-id]').count(), WAIT).toBe(wallets.length)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => requested.filter((path) => path.endsWith('/payments')).length, WAIT).toBeGreaterThanOrEqual(2)
    expect(await page.locator('#message').isHidden()).toBe(true)
    expect(requested.filter((path) => !path.startsWith('/_sandbox/'))).toEqual([])
    expect(requested).toContain(`/_sandbox/accounts/${account.id}/wallets`)
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

  it("shows the account's webhook deliveries and retries one with a click", async () => {
    sb = await startTestSandbox()
    receiver = await startWebhookReceiver({ respond: () => 500 })
    await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url, events: ['payment.created'] }).expect(201)
    await createPayment()
    await receiver.waitFor(1)
    await sb.sandbox.webhooks.idle()
    const [delivery] = (await sb.api.get('/_sandbox/webhooks/deliveries').expect(200)).body.data as Array<{ id: string }>

    const page = await open()
    expect(await cellText(page, 'deliveries', delivery!.id, 'attempts')).toBe('1')
    await row(page, 'deliveries', delivery!.id).getByRole('button', { name: 'Retry' }).click()
    await expect.poll(() => cellText(page, 'deliveries', delivery!.id, 'attempts'), WAIT).toBe('2')
    expect(receiver.received).toHaveLength(2)
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
    expect(await row(page, 'payments', payment.id).count()).toBe(0)
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
    await context!.close()
    context = undefined
    const fresh = await open()
    await fresh.locator('#token-form').waitFor()
  })
})

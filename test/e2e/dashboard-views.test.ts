import { afterEach, describe, expect, it } from 'vitest'
import { cellText, pagerText, row, rowCount, useDashboardBrowser, WAIT } from '../helpers/dashboard-browser.js'
import { institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** The dashboard's lists, in Chromium: each shows what was created through the API, and pages. */

const ACCOUNT = 'acct_sandboxDefaultAccount000'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'
const OTHER_EVM = '0xde709f2102306220921060314715629080e2fb77'

describe('the dashboard’s lists in Chromium', () => {
  const browser = useDashboardBrowser()
  let sb: TestSandbox | undefined

  afterEach(async () => {
    await browser.finish()
    await sb?.close()
    sb = undefined
  })

  const open = () => browser.open(sb!.url)
  const ready = async (page: Awaited<ReturnType<typeof open>>) => page.locator('#wallets tbody tr[data-id]').first().waitFor()

  async function payFrom(source: { id: string }, amount: string) {
    const res = await sb!.api.post('/v1/payments').set(sb!.auth()).send({ amount, currency: 'USDC', source_wallet: source.id, recipient: EVM }).expect(201)
    return res.body.data as { id: string }
  }

  it('shows a wallet’s available, locked and total balance, grouped in thousands without rounding', async () => {
    sb = await startTestSandbox()
    const created = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'Big', currency: 'USDC', network: 'polygon' }).expect(201)
    const wallet = created.body.data as { id: string }
    await sb.api.post(`/_sandbox/wallets/${wallet.id}/deposit`).send({ amount: '1234567.891' }).expect(200)
    await payFrom(wallet, '1000000.5')
    const eth = await sb.api.post('/v1/wallets').set(sb.auth()).send({ name: 'Dust', currency: 'ETH', network: 'ethereum' }).expect(201)
    // 2^53 + 1 wei: a Number would show ...992; the page must show every digit.
    await sb.api.post(`/_sandbox/wallets/${eth.body.data.id}/deposit`).send({ amount: '0.009007199254740993' }).expect(200)
    await sb.api.post(`/_sandbox/wallets/${eth.body.data.id}/deposit`).send({ amount: '12345' }).expect(200)

    const page = await open()
    await ready(page)
    expect(await cellText(page, 'wallets', wallet.id, 'available')).toBe('234,567.391')
    expect(await cellText(page, 'wallets', wallet.id, 'locked')).toBe('1,000,000.50')
    expect(await cellText(page, 'wallets', wallet.id, 'total')).toBe('1,234,567.891')
    expect(await cellText(page, 'wallets', eth.body.data.id, 'total')).toBe('12,345.009007199254740993')
    expect(await row(page, 'wallets', wallet.id).textContent()).toContain('USDC · polygon')
  })

  it('groups amounts in thousands as strings: any length, any fraction, nothing else touched', async () => {
    sb = await startTestSandbox()
    const page = await open()
    const cases = ['0.00', '999.99', '1000.00', '12345.6', '1234567.000001', '100000000000000000000.000000000000000001', '-1234.50', '12a34', '']
    // A string, so that the import is the browser's own, not one rewritten by the test runner.
    const grouped = await page.evaluate(`import('/_sandbox/ui/format.js').then(({ groupThousands }) => ${JSON.stringify(cases)}.map(groupThousands))`)
    expect(grouped).toEqual(['0.00', '999.99', '1,000.00', '12,345.6', '1,234,567.000001', '100,000,000,000,000,000,000.000000000000000001', '-1,234.50', '12a34', ''])
  })

  it('says how many rows each list has and pages through them', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const payments = []
    for (let i = 0; i < 12; i++) payments.push(await payFrom(source, `${i + 1}.00`))
    const page = await open()
    await ready(page)
    expect(await pagerText(page, 'wallets')).toBe('14 rows · showing 1–10')
    expect(await pagerText(page, 'payments')).toBe('12 rows · showing 1–10')
    expect(await pagerText(page, 'payouts')).toBe('0 rows')
    expect(await pagerText(page, 'requests')).toBe('13 rows · showing 1–10')
    const wallets = page.locator('[data-pager="wallets"]')
    expect(await wallets.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true)
    expect(await page.locator('[data-pager="payouts"]').getByRole('button', { name: 'Next' }).isHidden()).toBe(true)

    await wallets.getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => pagerText(page, 'wallets'), WAIT).toBe('14 rows · showing 11–14')
    expect(await rowCount(page, 'wallets')).toBe(4)
    expect(await wallets.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true)
    const secondPage = (await sb.api.get(`/_sandbox/accounts/${ACCOUNT}/wallets?limit=10&offset=10`).expect(200)).body.data as Array<{ id: string }>
    for (const wallet of secondPage) expect(await row(page, 'wallets', wallet.id).count()).toBe(1)
    // Each list pages on its own.
    expect(await pagerText(page, 'payments')).toBe('12 rows · showing 1–10')

    const paymentsPager = page.locator('[data-pager="payments"]')
    await paymentsPager.getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => rowCount(page, 'payments'), WAIT).toBe(2)
    expect(await row(page, 'payments', payments[0]!.id).count()).toBe(1)
    await paymentsPager.getByRole('button', { name: 'Previous' }).click()
    await expect.poll(() => pagerText(page, 'payments'), WAIT).toBe('12 rows · showing 1–10')
    expect(await row(page, 'payments', payments[11]!.id).count()).toBe(1)

    // When the rows of the page shown go away, the list moves to its last page.
    await paymentsPager.getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => rowCount(page, 'payments'), WAIT).toBe(2)
    await sb.api.post('/_sandbox/reset').send({ api_key: 'sk_test_sandbox_default_key' }).expect(200)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => pagerText(page, 'payments'), WAIT).toBe('0 rows')
    expect(await page.locator('#payments tr.empty').textContent()).toBe('No payments yet.')
  })

  it('shows orders with their fills', async () => {
    sb = await startTestSandbox()
    await sb.api.post('/_sandbox/prices').send({ pair: 'USDC/USD', price: '1', spread_bp: 0 }).expect(201)
    await sb.api.post('/_sandbox/prices').send({ pair: 'ETH/USD', price: '3000', spread_bp: 0 }).expect(201)
    const eth = await institutionalWallet(sb, 'ethereum', 'ETH')
    const usdc = await institutionalWallet(sb, 'ethereum', 'USDC')
    const order = (await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '7', limit_price: '3000', base_wallet: eth.id, quote_wallet: usdc.id }).expect(201)).body.data
    const page = await open()
    await ready(page)
    expect(await cellText(page, 'orders', order.id, 'filled')).toBe('5.00 / 7.00')
    expect(await cellText(page, 'orders', order.id, 'fills')).toBe('5.00 @ 3000.00')
    expect(await cellText(page, 'orders', order.id, 'status')).toBe('partially_filled')
    expect(await pagerText(page, 'orders')).toBe('1 row')
  })

  it('shows bulk payouts', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const items = [{ amount: '1500', recipient: EVM }, { amount: '0.25', recipient: OTHER_EVM }]
    const payout = (await sb.api.post('/v1/payouts').set(sb.auth()).send({ source_wallet: source.id, currency: 'USDC', items }).expect(201)).body.data
    const page = await open()
    await ready(page)
    expect(await cellText(page, 'payouts', payout.id, 'total')).toBe('1,500.25 USDC')
    expect(await cellText(page, 'payouts', payout.id, 'items')).toBe('2')
    expect(await cellText(page, 'payouts', payout.id, 'status')).toBe('pending')
    expect(await pagerText(page, 'payouts')).toBe('1 row')
    // Its items are payments, listed with the others.
    for (const id of payout.payment_ids) expect(await row(page, 'payments', id).count()).toBe(1)
  })

  it('shows settlements with their steps as a timeline, and advances one', async () => {
    sb = await startTestSandbox()
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const destination = { type: 'address', network: 'solana', currency: 'SOL', address: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' }
    const settlement = (await sb.api.post('/v1/settlements').set(sb.auth()).send({ source_wallet: source.id, amount: '1500', destination }).expect(201)).body.data
    const page = await open()
    await ready(page)
    expect(await cellText(page, 'settlements', settlement.id, 'total')).toBe('1,504.50 USDC')
    const steps = row(page, 'settlements', settlement.id).locator('.timeline li')
    expect(await steps.evaluateAll((items) => items.map((item) => item.getAttribute('data-step')))).toEqual(['conversion', 'bridge', 'transfer'])
    await row(page, 'settlements', settlement.id).getByRole('button', { name: 'Advance' }).click()
    await expect.poll(async () => row(page, 'settlements', settlement.id).locator('.timeline li[data-step="conversion"] [data-field="status"]').textContent(), WAIT).toBe('completed')
    expect(await row(page, 'settlements', settlement.id).locator('.timeline li[data-step="bridge"] [data-field="status"]').textContent()).toBe('processing')
  })

  it('shows webhook endpoints and the whitelist with its enforcement', async () => {
    sb = await startTestSandbox()
    const endpoint = (await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'http://127.0.0.1:9/hooks', events: ['payment.failed'], description: 'ops' }).expect(201)).body.data
    const entry = (await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send({ address: EVM, network: 'polygon', label: 'treasury' }).expect(201)).body.data
    const page = await open()
    await ready(page)
    expect(await cellText(page, 'endpoints', endpoint.id, 'url')).toBe('http://127.0.0.1:9/hooks')
    expect(await cellText(page, 'endpoints', endpoint.id, 'status')).toBe('enabled')
    expect(await row(page, 'endpoints', endpoint.id).textContent()).toContain('1 event type')
    expect(await page.locator('#endpoints').textContent()).not.toContain('whsec_')
    expect(await cellText(page, 'whitelist', entry.id, 'address')).toBe(EVM)
    expect(await row(page, 'whitelist', entry.id).textContent()).toContain('treasury')
    expect(await page.locator('#whitelist-enforced').textContent()).toMatch(/^Not enforced/)

    await sb.api.patch(`/_sandbox/accounts/${ACCOUNT}`).send({ whitelist_enforced: true }).expect(200)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await expect.poll(() => page.locator('#whitelist-enforced').textContent(), WAIT).toMatch(/^Enforced/)
  })

  it('shows outcome rules and faults with what is left of them, and the request journal with the faults it met', async () => {
    sb = await startTestSandbox({ settle: 'instant' })
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    const rule = (await sb.api.post('/_sandbox/outcomes').send({ match: { network: 'polygon', amount_min: '1000' }, outcome: 'failed', failure_code: 'recipient_rejected', times: 2 }).expect(201)).body.data
    const fault = (await sb.api.post('/_sandbox/faults').send({ match: { path: '/v1/wallets' }, fault: 'error', times: 3 }).expect(201)).body.data
    const faulted = await sb.api.get('/v1/wallets').set(sb.auth()).expect(503)
    const payment = await payFrom(source, '1500')
    const page = await open()
    await ready(page)
    expect(await cellText(page, 'outcomes', rule.id, 'match')).toBe('network polygon, amount_min 1,000')
    expect(await cellText(page, 'outcomes', rule.id, 'status')).toBe('failed')
    expect(await cellText(page, 'outcomes', rule.id, 'remaining')).toBe('1 of 2')
    expect(await row(page, 'outcomes', rule.id).textContent()).toContain('recipient_rejected')
    await expect.poll(() => cellText(page, 'payments', payment.id, 'status'), WAIT).toBe('failed')
    expect(await cellText(page, 'faults', fault.id, 'match')).toBe('path /v1/wallets')
    expect(await cellText(page, 'faults', fault.id, 'remaining')).toBe('2 of 3')
    expect(await row(page, 'faults', fault.id).textContent()).toContain('HTTP 503')

    const id = faulted.headers['x-request-id'] as string
    expect(await cellText(page, 'requests', id, 'path')).toBe('/v1/wallets')
    expect(await cellText(page, 'requests', id, 'status')).toBe('503')
    expect(await row(page, 'requests', id).textContent()).toContain('error')
    // Newest first: the payment is the latest request.
    expect(await page.locator('#requests tbody tr').first().locator('[data-field="path"]').textContent()).toBe('/v1/payments')
  })

  it('fits a 375 px wide screen without sideways scrolling, every list filled', async () => {
    sb = await startTestSandbox()
    await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: `http://127.0.0.1:9/${'long-path/'.repeat(20)}`, description: 'a receiver with a rather long description' }).expect(201)
    const source = await institutionalWallet(sb, 'polygon', 'USDC')
    await payFrom(source, '123456.78')
    await sb.api.post('/v1/payouts').set(sb.auth()).send({ source_wallet: source.id, currency: 'USDC', items: [{ amount: '1', recipient: EVM }] }).expect(201)
    await sb.api.post('/v1/settlements').set(sb.auth()).send({ source_wallet: source.id, amount: '10', destination: { type: 'bank_account', currency: 'EUR', beneficiary: { name: 'A rather long beneficiary name', country: 'DE', iban: 'DE89370400440532013000' } } }).expect(201)
    await sb.api.post('/v1/whitelisted_addresses').set(sb.auth()).send({ address: EVM, network: 'polygon' }).expect(201)
    const [eth, usdc] = [await institutionalWallet(sb, 'ethereum', 'ETH'), await institutionalWallet(sb, 'ethereum', 'USDC')]
    await sb.api.post('/v1/orders').set(sb.auth()).send({ pair: 'ETH/USDC', side: 'buy', type: 'limit', amount: '7', limit_price: '99999', base_wallet: eth.id, quote_wallet: usdc.id }).expect(201)
    await sb.api.post('/_sandbox/outcomes').send({ match: { recipient: EVM, source_wallet: source.id }, outcome: 'pending' }).expect(201)
    await sb.api.post('/_sandbox/faults').send({ match: { path: '/v1/payments*', api_key: 'sk_test_sandbox_default_key' }, fault: 'latency', latency_ms: [20, 80], probability: 0.5 }).expect(201)
    await sb.sandbox.webhooks.idle()

    const page = await browser.open(sb.url, { viewport: { width: 375, height: 800 } })
    await ready(page)
    for (const list of ['payments', 'payouts', 'orders', 'settlements', 'events', 'endpoints', 'deliveries', 'whitelist', 'outcomes', 'faults', 'requests']) {
      await page.locator(`#${list} tbody tr[data-id]`).first().waitFor({ timeout: 5000 })
    }
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375)
    await page.locator('[data-pager="wallets"]').getByRole('button', { name: 'Next' }).click()
    await expect.poll(() => rowCount(page, 'wallets'), WAIT).toBe(4)
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375)
    // An event's JSON wraps too.
    await page.locator('#events tbody tr[data-id]').first().click()
    const json = page.locator('#events tr.event-json pre')
    await json.waitFor({ timeout: 5000 })
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375)
    expect(await json.evaluate((pre) => pre.scrollWidth - pre.clientWidth)).toBe(0)
  })
})

import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { cellText, row, rowCount, useDashboardBrowser, WAIT } from '../helpers/dashboard-browser.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/** The dashboard's request journal in Chromium: the route's filters, the requests without an account, and what a request sent. */

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

describe('the dashboard’s request journal in Chromium', () => {
  const browser = useDashboardBrowser()
  let sb: TestSandbox | undefined

  afterEach(async () => {
    await browser.finish()
    await sb?.close()
    sb = undefined
  })

  /** Wallet read, a payment with an Idempotency-Key, a missing payment, and a request without a key. */
  async function traffic() {
    const wallet = await institutionalWallet(sb!, 'polygon', 'USDC')
    const paid = await sb!.api.post('/v1/payments').set(sb!.auth()).set('Idempotency-Key', 'invoice-7')
      .send({ amount: '10.00', currency: 'USDC', source_wallet: wallet.id, recipient: EVM, metadata: { invoice: '7' } }).expect(201)
    const missing = await sb!.api.get('/v1/payments/pay_unknown').set(sb!.auth()).expect(404)
    const anonymous = await sb!.api.get('/v1/wallets').expect(401)
    return { paid: paid.headers['x-request-id'] as string, missing: missing.headers['x-request-id'] as string, anonymous: anonymous.headers['x-request-id'] as string }
  }

  const paths = (page: Page) => page.locator('#requests tbody tr[data-id] [data-field="path"]').allTextContents()
  const filter = async (page: Page, field: string, value: string) => {
    const input = page.locator(`#requests-${field}`)
    if ((await input.evaluate((node) => node.tagName)) === 'SELECT') await input.selectOption(value)
    else {
      await input.fill(value)
      await input.press('Enter')
    }
  }

  it('filters by method, path template, status class and idempotency key, and shows the requests without an account', async () => {
    sb = await startTestSandbox()
    const ids = await traffic()
    const page = await browser.open(sb.url)
    await row(page, 'requests', ids.paid).waitFor({ timeout: 5000 })
    expect(await rowCount(page, 'requests')).toBe(3)

    await filter(page, 'method', 'POST')
    await expect.poll(() => paths(page), WAIT).toEqual(['/v1/payments'])
    await filter(page, 'method', '')
    await filter(page, 'path', '/v1/payments/{id}')
    await expect.poll(() => paths(page), WAIT).toEqual(['/v1/payments/pay_unknown'])
    await filter(page, 'path', '')
    await filter(page, 'status', '2xx')
    await expect.poll(() => rowCount(page, 'requests'), WAIT).toBe(2)
    await filter(page, 'status', '')
    await filter(page, 'idempotency_key', 'invoice-7')
    await expect.poll(() => paths(page), WAIT).toEqual(['/v1/payments'])
    await filter(page, 'idempotency_key', 'invoice-8')
    await expect.poll(() => page.locator('#requests tbody').textContent(), WAIT).toBe('No /v1 requests from this account match the filters yet.')
    await filter(page, 'idempotency_key', '')

    await filter(page, 'whose', 'none')
    await expect.poll(() => paths(page), WAIT).toEqual(['/v1/wallets'])
    expect(await cellText(page, 'requests', ids.anonymous, 'status')).toBe('401')
  })

  it('shows the route’s error for a filter it refuses, until the filter is right', async () => {
    sb = await startTestSandbox()
    const ids = await traffic()
    const page = await browser.open(sb.url)
    await row(page, 'requests', ids.paid).waitFor({ timeout: 5000 })
    await filter(page, 'status', '6xx')
    const problem = page.locator('#requests-error')
    await expect.poll(() => problem.textContent(), WAIT).toBe('parameter_invalid: status must be an HTTP status code such as 201 or a class such as 4xx.')
    expect(await rowCount(page, 'requests')).toBe(0)
    await filter(page, 'status', '404')
    await expect.poll(() => paths(page), WAIT).toEqual(['/v1/payments/pay_unknown'])
    expect(await problem.isHidden()).toBe(true)
  })

  it('shows what a request sent and got on a click, the key masked, and hides it on another', async () => {
    sb = await startTestSandbox()
    const ids = await traffic()
    const page = await browser.open(sb.url, { viewport: { width: 375, height: 800 } })
    await row(page, 'requests', ids.paid).click()
    const details = page.locator('#requests tr.request-details')
    await details.waitFor({ timeout: 5000 })
    const headers = await page.getByLabel(`Request headers of ${ids.paid}`).textContent()
    expect(headers).toContain('idempotency-key: invoice-7')
    expect(headers).toContain('authorization: Bearer sk_test_…_key')
    expect(headers).not.toContain(DEFAULT_KEY)
    expect(JSON.parse((await page.getByLabel(`Request body of ${ids.paid}`).textContent())!)).toMatchObject({ amount: '10.00', metadata: { invoice: '7' } })
    expect(await page.getByLabel(`Request body of ${ids.paid}`).textContent()).toContain('\n  "amount": "10.00"')
    expect(JSON.parse((await page.getByLabel(`Response body of ${ids.paid}`).textContent())!).data).toMatchObject({ amount: '10.00', status: 'pending' })
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(375)
    // Kept open when the list is drawn again (a new request came), closed by a second click.
    const next = await sb.api.get('/v1/prices').set(sb.auth()).expect(200)
    await page.locator('#refresh').click()
    await row(page, 'requests', next.headers['x-request-id'] as string).waitFor({ timeout: 5000 })
    expect(await details.count()).toBe(1)
    await row(page, 'requests', ids.paid).click()
    await expect.poll(() => details.count(), WAIT).toBe(0)
  })
})

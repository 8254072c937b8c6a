import { existsSync } from 'node:fs'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll, expect } from 'vitest'

/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core. The tests never skip:
 * without the browser they fail and say how to install it (.ci/run installs it by itself).
 */

export const CHROMIUM = '/usr/bin/chromium'
export const WAIT = { timeout: 5000, interval: 50 }

export const missingChromium = (path: string) =>
  `The dashboard's browser tests drive Chromium at ${path}, which is missing. ` +
  'Install it (Debian or Ubuntu: `sudo apt-get install chromium`) and run the tests again; .ci/run installs it by itself.'

export async function launchChromium(executablePath = CHROMIUM): Promise<Browser> {
  if (!existsSync(executablePath)) throw new Error(missingChromium(executablePath))
  return chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] })
}

export interface OpenOptions {
  viewport?: { width: number; height: number }
  /** Collects the path of every request the page makes. */
  requests?: string[]
}

/**
 * One browser for the test file; each test opens pages in a browser session (its own
 * sessionStorage) and ends it with `finish()`, which fails the test on script errors and on
 * content-security-policy violations.
 */
export function useDashboardBrowser() {
  let browser: Browser | undefined
  let context: BrowserContext | undefined
  let pageErrors: string[] = []
  beforeAll(async () => {
    browser = await launchChromium()
  }, 30_000)
  afterAll(() => browser?.close())

  return {
    /** The dashboard of the sandbox at `url`, in the current browser session (a new one after `finish`). */
    async open(url: string, options: OpenOptions = {}): Promise<Page> {
      context ??= await browser!.newContext(options.viewport ? { viewport: options.viewport } : {})
      if (options.requests) context.on('request', (request) => options.requests!.push(new URL(request.url()).pathname))
      const page = await context.newPage()
      page.on('pageerror', (error) => pageErrors.push(error.message))
      page.on('console', (message) => {
        if (/Content.Security.Policy|Uncaught/i.test(message.text())) pageErrors.push(message.text())
      })
      await page.goto(`${url}/_sandbox/ui`)
      return page
    },
    /** Ends the browser session; the page must have had no script error. */
    async finish() {
      await context?.close()
      context = undefined
      const errors = pageErrors
      pageErrors = []
      expect(errors).toEqual([])
    },
  }
}

export const row = (page: Page, table: string, id: string) => page.locator(`#${table} tr[data-id="${id}"]`)
export const cellText = (page: Page, table: string, id: string, field: string) => row(page, table, id).locator(`[data-field="${field}"]`).textContent({ timeout: 5000 })
export const rowCount = (page: Page, table: string) => page.locator(`#${table} tbody tr[data-id]`).count()
export const pagerText = (page: Page, list: string) => page.locator(`[data-pager="${list}"] .count`).textContent({ timeout: 5000 })

import { describe, expect, it } from 'vitest'
import { checkForwardUrl, forwardSecret } from '../../../src/cli/terminal/forward.js'

/** `listen --forward-to`: the URL it takes and the secret it signs with. */

describe('--forward-to', () => {
  it.each([
    ['http://localhost:3000/webhooks', 'http://localhost:3000/webhooks'],
    ['https://app.test/hooks', 'https://app.test/hooks'],
    ['localhost:3000/webhooks', 'http://localhost:3000/webhooks'],
    ['127.0.0.1:3000', 'http://127.0.0.1:3000'],
    ['app.local/hooks', 'http://app.local/hooks'],
    ['[::1]:3000/webhooks', 'http://[::1]:3000/webhooks'],
  ])('takes %s as %s (no scheme is http, as the Stripe CLI has it)', (typed, url) => {
    expect(checkForwardUrl(typed)).toBe(url)
  })

  it.each(['ftp://localhost/hooks', 'mailto:me@example.com', 'http:/localhost:3000', 'http://', 'localhost:3000 /webhooks', ''])('refuses %j, naming what was typed', (typed) => {
    expect(() => checkForwardUrl(typed)).toThrow(`got ${JSON.stringify(typed)}`)
  })
})

describe('the secret of --forward-to', () => {
  it('is one for each sandbox seed and account, whatever the URL', () => {
    const secret = forwardSecret('my-seed', 'acct_1')
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/)
    expect(forwardSecret('my-seed', 'acct_1')).toBe(secret)
    expect(forwardSecret('my-seed', 'acct_2')).not.toBe(secret)
    expect(forwardSecret('other-seed', 'acct_1')).not.toBe(secret)
  })
})

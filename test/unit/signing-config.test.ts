import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'

describe('--signing-secret and --signature-max-age', () => {
  it('take base64 and a duration from flags or the environment', () => {
    const config = loadConfig({ env: { WALLET_SANDBOX_SIGNING_SECRET: 'c2VjcmV0IQ==', WALLET_SANDBOX_SIGNATURE_MAX_AGE: '5m' } })
    expect(config.signingSecret).toBe('c2VjcmV0IQ==')
    expect(config.signatureMaxAge).toBe(300_000)
    expect(loadConfig({ flags: { signatureMaxAge: '90s' } }).signatureMaxAge).toBe(90_000)
    expect(loadConfig({ flags: { signatureMaxAge: '1h' } }).signatureMaxAge).toBe(3_600_000)
    expect(loadConfig({ flags: { signatureMaxAge: '45' } }).signatureMaxAge).toBe(45_000)
    expect(loadConfig().signatureMaxAge).toBe(300_000)
    expect(loadConfig().signingSecret).toBeUndefined()
  })

  it.each(['not base64!', 'c2VjcmV0IQ', 'c2VjcmV0IQ==\n', 'c2VjcmV0_Q=='])('refuses the signing secret %j at start-up', (secret) => {
    expect(() => loadConfig({ flags: { signingSecret: secret } })).toThrow(
      '--signing-secret (WALLET_SANDBOX_SIGNING_SECRET): expected standard base64 with padding, such as the output of openssl rand -base64 32',
    )
  })

  it.each(['0', '5 minutes', '-1', '1.5m', '100ms'])('refuses the max age %j', (age) => {
    expect(() => loadConfig({ flags: { signatureMaxAge: age } })).toThrow(`--signature-max-age (WALLET_SANDBOX_SIGNATURE_MAX_AGE): '${age}' is not a duration such as 300, 90s, 5m or 1h (at least one second)`)
  })
})

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * Prism (`prism proxy --errors`) in front of a sandbox, validating every request against the
 * document and every answer of the sandbox against it. One run of the main flows, valid requests
 * only (Prism refuses an invalid request itself, so the sandbox's own 400s are left to the suite's
 * conformance check): an answer that breaks the document comes back as a Prism error with an
 * `sl-violations` header, and Prism logs it.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')
const KEY = 'sk_test_prism_proxy_test'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

let sb: TestSandbox
let prism: ChildProcess
let prismUrl: string
let prismLog = ''
let dir: string

beforeAll(async () => {
  sb = await startTestSandbox()
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-prism-'))
  const documentFile = join(dir, 'openapi.json')
  writeFileSync(documentFile, (await sb.api.get('/v1/openapi.json').expect(200)).text)
  prism = spawn(join(ROOT, 'node_modules/.bin/prism'), ['proxy', '--errors', '--port', '0', '--host', '127.0.0.1', documentFile, sb.url], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] })
  prismUrl = await new Promise<string>((resolveUrl, reject) => {
    const collect = (chunk: Buffer) => {
      prismLog += chunk.toString()
      const listening = /Prism is listening on (http:\/\/\S+)/.exec(prismLog)
      if (listening) resolveUrl(listening[1]!)
    }
    prism.stdout!.on('data', collect)
    prism.stderr!.on('data', collect)
    prism.once('exit', (code) => reject(new Error(`prism exited (${code}) before listening:\n${prismLog}`)))
  })
}, 90_000)

afterAll(async () => {
  if (prism && prism.exitCode === null) {
    const exited = new Promise((done) => prism.once('exit', done))
    prism.kill()
    await exited
  }
  rmSync(dir, { recursive: true, force: true })
  await sb?.close()
})

interface Answer {
  status: number
  body: { data?: any; error?: { code: string } }
}

/** One call through Prism; any violation Prism reports fails the test with its details. */
async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${prismUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  const violations = res.headers.get('sl-violations')
  expect(violations, `${method} ${path} → ${res.status}: ${violations}\n${text}`).toBeNull()
  expect(res.headers.get('content-type'), `${method} ${path}: ${text}`).toMatch(/^application\/json/)
  return { status: res.status, body: JSON.parse(text) }
}

describe('the sandbox behind `prism proxy --errors`', () => {
  it('answers the main flows (wallets, balances, payments, payouts, whitelist, webhook endpoints, errors) with no violation', async () => {
    // Wallets and balances
    const wallet = await call('POST', '/v1/wallets', { name: 'Prism wallet', currency: 'USDC', network: 'polygon' })
    expect(wallet.status).toBe(201)
    const walletId = wallet.body.data.id as string
    expect((await call('GET', '/v1/wallets?limit=5&offset=0&network=polygon&type=user')).status).toBe(200)
    expect((await call('GET', `/v1/wallets/${walletId}`)).status).toBe(200)
    expect((await call('PUT', `/v1/wallets/${walletId}`, { name: 'Renamed', metadata: { team: 'qa' } })).status).toBe(200)
    const treasury = (await call('GET', '/v1/wallets?type=institutional&network=polygon&currency=USDC')).body.data[0]
    expect((await call('GET', `/v1/wallets/${treasury.id}/balance`)).body.data).toMatchObject({ object: 'balance', currency: 'USDC' })
    expect((await call('GET', '/v1/prices?pairs=ETH/USD')).status).toBe(200)

    // Payments, through their whole life (control calls go through Prism too)
    const payment = await call('POST', '/v1/payments', { source_wallet: treasury.id, recipient: walletId, amount: '5.00', currency: 'USDC' }, { 'Idempotency-Key': 'prism-payment-1' })
    expect(payment.status).toBe(201)
    const paymentId = payment.body.data.id as string
    expect((await call('POST', `/_sandbox/payments/${paymentId}/complete`)).body.data).toMatchObject({ status: 'completed' })
    const failing = await call('POST', '/v1/payments', { source_wallet: treasury.id, recipient: EVM, amount: '1.00', currency: 'USDC', description: null })
    expect((await call('POST', `/_sandbox/payments/${failing.body.data.id}/fail`, { failure_code: 'recipient_rejected' })).body.data).toMatchObject({ status: 'failed', failure_code: 'recipient_rejected' })
    expect((await call('GET', `/v1/payments/${paymentId}`)).body.data).toMatchObject({ status: 'completed', tx_hash: expect.stringMatching(/^0x/) })
    expect((await call('GET', '/v1/payments?limit=10&status=completed&currency=USDC')).status).toBe(200)

    // Bulk payouts
    const payout = await call('POST', '/v1/payouts', { source_wallet: treasury.id, currency: 'USDC', items: [{ amount: '1.00', recipient: EVM }, { amount: '2.00', recipient: walletId, metadata: { ref: 'a' } }] })
    expect(payout.status).toBe(201)
    expect((await call('GET', `/v1/payouts/${payout.body.data.id}`)).body.data).toMatchObject({ item_count: 2 })
    expect((await call('GET', '/v1/payouts?limit=1')).status).toBe(200)

    // Whitelist
    const entry = await call('POST', '/v1/whitelisted_addresses', { address: EVM, network: 'polygon', label: 'cold storage' })
    expect(entry.status).toBe(201)
    expect((await call('GET', '/v1/whitelisted_addresses?network=polygon')).status).toBe(200)
    expect((await call('DELETE', `/v1/whitelisted_addresses/${entry.body.data.id}`)).body.data).toMatchObject({ deleted: true })

    // Webhook endpoints
    const endpoint = await call('POST', '/v1/webhooks', { url: 'https://example.com/hooks', events: ['payment.succeeded'] })
    expect(endpoint.status).toBe(201)
    const endpointId = endpoint.body.data.id as string
    expect((await call('GET', '/v1/webhooks')).status).toBe(200)
    expect((await call('PUT', `/v1/webhooks/${endpointId}`, { events: ['*'], status: 'disabled' })).body.data).toMatchObject({ status: 'disabled' })
    expect((await call('GET', `/v1/webhooks/${endpointId}`)).status).toBe(200)
    expect((await call('DELETE', `/v1/webhooks/${endpointId}`)).body.data).toMatchObject({ deleted: true })

    // Errors the sandbox answers to requests the document allows
    const errorCode = async (expected: number, method: string, path: string, body?: unknown, headers?: Record<string, string>) => {
      const answer = await call(method, path, body, headers)
      expect(answer.status, `${method} ${path}`).toBe(expected)
      return answer.body.error?.code
    }
    expect(await errorCode(404, 'GET', '/v1/wallets/wal_doesNotExist000000000000')).toBe('resource_missing')
    expect(await errorCode(404, 'GET', '/v1/payments/pay_doesNotExist000000000000')).toBe('resource_missing')
    expect(await errorCode(409, 'DELETE', `/v1/wallets/${treasury.id}`)).toBe('wallet_not_empty')
    expect(await errorCode(422, 'POST', '/v1/payments', { source_wallet: walletId, recipient: EVM, amount: '900000.00', currency: 'USDC' })).toBe('insufficient_funds')
    expect(await errorCode(400, 'POST', '/v1/payments', { source_wallet: walletId, recipient: EVM, amount: '1.00', currency: 'USDT' })).toBe('parameter_invalid')
    expect(await errorCode(422, 'POST', '/v1/payments', { source_wallet: treasury.id, recipient: EVM, amount: '2.00', currency: 'USDC' }, { 'Idempotency-Key': 'prism-payment-1' })).toBe('idempotency_key_reused')
    expect(await errorCode(401, 'GET', '/v1/wallets', undefined, { Authorization: 'Bearer sk_live_not_in_a_sandbox' })).toBe('live_key_in_sandbox')
    expect(await errorCode(409, 'POST', `/_sandbox/payments/${paymentId}/fail`)).toBe('invalid_state_transition')

    expect(prismLog).not.toMatch(/violation/i)
  }, 60_000)
})

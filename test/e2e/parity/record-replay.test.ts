import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { RecordedExchange } from '../../../src/parity/recording.js'
import type { Report } from '../../../src/parity/report.js'
import type { RunningSandbox } from '../../../src/public.js'
import { launch, lineOf } from '../../helpers/cli-process.js'
import { cli, startHosted, useHostedBehindProxy } from './parity-helpers.js'

/**
 * `wallet-sandbox record` in front of the "hosted" sandbox, a short suite through it, then `parity
 * --replay` of the recording against a fresh sandbox (CONTRACT.md section 22): no difference, the
 * hosted ids translated to local ones (as the local request journal shows), a request naming an id
 * no answer held reported unmapped, and an edited recording showing its edit.
 */

const sides = useHostedBehindProxy('parity-recorded')
let local: RunningSandbox
const dir = mkdtempSync(join(tmpdir(), 'parity-record-'))
const recording = join(dir, 'suite.jsonl')
const LIVE_KEY = 'sk_live_abcdefgh12345678'

beforeAll(async () => {
  local = await startHosted({ seed: 'parity-replayed' })
})
afterAll(() => local?.close())

/** The suite under test: what an application's tests send, through the recorder. */
async function suite(api: string, key: string) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${api}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as { data: Record<string, string> & Array<Record<string, string>> } }
  }
  const [treasury] = (await call('GET', '/wallets?type=institutional&currency=USDC&network=polygon')).body.data
  const wallet = (await call('POST', '/wallets', { name: 'customer', currency: 'USDC', network: 'polygon', metadata: { external_user_id: 'u-1' } })).body.data
  await call('GET', `/wallets/${wallet.id}`)
  const payment = (await call('POST', '/payments', { amount: '12.50', currency: 'USDC', source_wallet: treasury!.id, recipient: wallet.id }, { 'Idempotency-Key': 'order-1' })).body.data
  await call('GET', `/payments/${payment.id}`)
  await call('GET', `/payments?recipient_id=${wallet.id}`)
  await call('POST', '/webhooks', { url: 'https://example.com/hooks', events: ['payment.failed'] })
  await call('GET', '/wallets/wal_000000000000000000000000')
  return { treasury: treasury!.id, wallet: wallet.id, payment: payment.id }
}

describe('record', () => {
  it('forwards a suite to the hosted sandbox and writes one JSON line per exchange, never Authorization or a secret; a live key is answered 403, not forwarded', async () => {
    const recorder = launch(['record', '--to', sides.proxy.url, '--out', recording, '--port', '0', '--ready-json'])
    const ready = await lineOf(recorder, (line) => JSON.parse(line) as { ready: boolean; url: string; port: number })
    expect(ready).toMatchObject({ ready: true, url: `http://127.0.0.1:${ready.port}/v1` })
    const hostedIds = await suite(ready.url, sides.account.key)
    const live = await fetch(`${ready.url}/wallets`, { headers: { authorization: `Bearer ${LIVE_KEY}` } })
    expect(live.status).toBe(403)
    expect(((await live.json()) as { error: { code: string } }).error.code).toBe('live_key_in_sandbox')
    expect(sides.proxy.requests.filter((request) => request.authorization?.includes('sk_live_'))).toEqual([])
    expect(sides.proxy.requests).toHaveLength(8)

    recorder.child.kill('SIGTERM')
    expect((await recorder.exited).code).toBe(0)
    const text = readFileSync(recording, 'utf8')
    const exchanges = text.trim().split('\n').map((line) => JSON.parse(line) as RecordedExchange)
    expect(exchanges.map((exchange) => `${exchange.seq} ${exchange.request.method} ${exchange.request.path} ${exchange.answer.status}`)).toEqual([
      '1 GET /v1/wallets 200',
      '2 POST /v1/wallets 201',
      `3 GET /v1/wallets/${hostedIds.wallet} 200`,
      '4 POST /v1/payments 201',
      `5 GET /v1/payments/${hostedIds.payment} 200`,
      '6 GET /v1/payments 200',
      '7 POST /v1/webhooks 201',
      '8 GET /v1/wallets/wal_000000000000000000000000 404',
    ])
    expect(exchanges[3]!.request).toMatchObject({ headers: { 'content-type': 'application/json', 'idempotency-key': 'order-1' }, auth: 'key', body: { recipient: hostedIds.wallet } })
    expect(exchanges[5]!.request.query).toEqual({ recipient_id: hostedIds.wallet })
    expect(exchanges[6]!.answer.body).toMatchObject({ data: { secret: '<secret>' } })
    expect(text).not.toContain(sides.account.key)
    expect(text).not.toMatch(/authorization|whsec_|sk_test_|sk_live_/i)
  }, 60_000)
})

describe('parity --replay', () => {
  const replay = async (file: string) => {
    const { key } = await local.control.createKey()
    const run = await cli(['parity', '--replay', file, '--local', local.baseUrl, '--local-api-key', key, '--json'])
    return { ...run, key, report: run.stdout === '' ? undefined : (JSON.parse(run.stdout) as Report) }
  }

  it('sends the recording to a fresh sandbox with the hosted ids translated: no difference, and the unknown id unmapped', async () => {
    const { code, stderr, report, key } = await replay(recording)
    expect(code, stderr).toBe(0)
    expect(report!.summary).toMatchObject({ steps: 8, different: 0, skipped: 1, unmapped: 1 })
    expect(report!.steps[7]!.skipped).toBe('unmapped: names wal_000000000000000000000000, which no earlier answer of the recording held')
    const recorded = readFileSync(recording, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as RecordedExchange)
    const hostedWallet = (recorded[1]!.answer.body as { data: { id: string } }).data.id
    const [accountOfKey] = await local.control.request<Array<{ id: string }>>('GET', `/accounts?api_key=${key}`)
    const res = await fetch(`${local.baseUrl}/_sandbox/requests?account_id=${accountOfKey!.id}&limit=100`)
    const journal = ((await res.json()) as { data: Array<{ method: string; path: string; query: string | null; request_body: string | null; response_body: string | null }> }).data.reverse()
    const localWallet = (JSON.parse(journal[1]!.response_body!) as { data: { id: string } }).data.id
    expect(localWallet).not.toBe(hostedWallet)
    expect(journal.map((request) => `${request.method} ${request.path}`)).toEqual([
      'GET /v1/wallets',
      'POST /v1/wallets',
      `GET /v1/wallets/${localWallet}`,
      'POST /v1/payments',
      expect.stringMatching(/^GET \/v1\/payments\/pay_/),
      'GET /v1/payments',
      'POST /v1/webhooks',
    ])
    expect(JSON.parse(journal[3]!.request_body!)).toMatchObject({ recipient: localWallet })
    expect(journal[5]!.query).toBe(`recipient_id=${localWallet}`)
  }, 60_000)

  it('shows the edit of an edited recording, and only it', async () => {
    const lines = readFileSync(recording, 'utf8').trim().split('\n')
    const read = JSON.parse(lines[2]!) as RecordedExchange
    ;(read.answer.body as { data: { currency: string } }).data.currency = 'EURC'
    lines[2] = JSON.stringify(read)
    const edited = join(dir, 'edited.jsonl')
    writeFileSync(edited, `${lines.join('\n')}\n`)
    const { code, report } = await replay(edited)
    expect(code).toBe(1)
    expect(report!.new).toEqual(['GET /v1/wallets/{id} $.data.currency value'])
    expect(report!.steps[2]!.differences).toMatchObject([{ local: 'USDC', hosted: 'EURC' }])
  }, 60_000)
})

import { connect } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { startWebhookReceiver, type WebhookReceiver } from '../helpers/webhook-receiver.js'

/**
 * Values a client controls never reach a header line: a webhook URL is refused when it holds a
 * control character (or credentials), and CR/LF sent in an Idempotency-Key, metadata or a
 * description is never echoed into the API's response headers nor into a webhook delivery's.
 */

const RECIPIENT = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const INJECTED = 'X-Injected'

let sb: TestSandbox | undefined
let receiver: WebhookReceiver | undefined
afterEach(async () => {
  await sb?.close()
  await receiver?.close()
  sb = receiver = undefined
})

describe('a webhook url', () => {
  const refused: Array<[string, string, RegExp]> = [
    ['CR/LF and a header after it', 'https://example.com/hooks\r\nX-Injected: 1', /control character/],
    ['a line feed inside the host', 'https://exa\nmple.com/hooks', /control character/],
    ['a tab', 'https://example.com/ho\toks', /control character/],
    ['a NUL', 'https://example.com/hooks\u0000', /control character/],
    ['DEL', 'https://example.com/\u007fhooks', /control character/],
    ['a C1 control', 'https://example.com/\u0085hooks', /control character/],
    ['a leading space', ' https://example.com/hooks', /spaces/],
    ['credentials', 'https://user:secret@example.com/hooks', /credentials/],
    ['a user name alone', 'https://user@example.com/hooks', /credentials/],
    ['another scheme', 'ftp://example.com/hooks', /http:\/\/ or https:\/\//],
    ['javascript:', 'javascript:alert(1)', /http:\/\/ or https:\/\//],
    ['a relative path', '/hooks', /http:\/\/ or https:\/\//],
  ]

  it.each(refused)('with %s is refused with 400 naming url, and nothing is stored', async (_name, url, message) => {
    sb = await startTestSandbox()
    const before = (await sb.api.get('/v1/webhooks').set(sb.auth()).expect(200)).body.pagination.total
    const res = await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url }).expect(400)
    expect(res.body.error).toMatchObject({ type: 'invalid_request_error', code: 'parameter_invalid', param: 'url' })
    expect(res.body.error.message).toMatch(message)
    expect((await sb.api.get('/v1/webhooks').set(sb.auth()).expect(200)).body.pagination.total).toBe(before)
  })

  it('with CR/LF is refused by PUT too, and the endpoint keeps its url', async () => {
    sb = await startTestSandbox()
    const endpoint = (await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'https://example.com/hooks' }).expect(201)).body.data
    const res = await sb.api.put(`/v1/webhooks/${endpoint.id}`).set(sb.auth()).send({ url: 'https://example.com/hooks\r\nX-Injected: 1' }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'url' })
    expect((await sb.api.get(`/v1/webhooks/${endpoint.id}`).set(sb.auth()).expect(200)).body.data.url).toBe('https://example.com/hooks')
  })

  it.each(['http://127.0.0.1:9/hooks?a=1&b=%0D%0A', 'https://example.com:8443/päth', 'http://[::1]:9/x'])('%s (encoded, unicode, IPv6) is accepted as sent', async (url) => {
    sb = await startTestSandbox()
    expect((await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url }).expect(201)).body.data.url).toBe(url)
  })

  it('given to --webhook-url with a line break is refused at start-up', () => {
    expect(() => loadConfig({ flags: { webhookUrl: 'http://127.0.0.1:9/x\r\nX-Injected: 1' } as never })).toThrow(/control character/)
  })
})

/** One request written on a raw socket (a client library refuses to send CR or LF in a header). */
function rawRequest(url: string, head: string, body: string): Promise<string> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname)
    let answer = ''
    socket.setEncoding('latin1')
    socket.on('data', (chunk: string) => (answer += chunk))
    socket.on('end', () => resolve(answer))
    socket.on('error', reject)
    socket.write(`${head}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  })
}

const headerNames = (answer: string) => answer.split('\r\n\r\n')[0]!.split('\r\n').slice(1).map((line) => line.split(':')[0]!.toLowerCase())

describe('CR/LF in client values', () => {
  it.each([
    ['a bare CR', 'abc\rX-Injected: 1'],
    ['a bare LF', 'abc\nX-Injected: 1'],
    ['a control character', 'abc\u0001X-Injected: 1'],
  ])('an Idempotency-Key with %s gets 400 in the error shape, no header of its own, and creates nothing', async (_name, key) => {
    sb = await startTestSandbox()
    const wallet = await institutionalWallet(sb, 'solana', 'SOL')
    const body = JSON.stringify({ amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: RECIPIENT })
    const answer = await rawRequest(sb.url, `POST /v1/payments HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\nContent-Type: application/json\r\nIdempotency-Key: ${key}`, body)
    expect(answer).toMatch(/^HTTP\/1\.1 400 /)
    expect(headerNames(answer)).not.toContain(INJECTED.toLowerCase())
    const [head, text] = answer.split('\r\n\r\n') as [string, string]
    const error = JSON.parse(text)
    expect(error.error).toMatchObject({ type: 'invalid_request_error', code: 'malformed_request' })
    expect(error.error.message).toMatch(/not valid HTTP\/1\.1 .*control character/)
    expect(head).toContain(`X-Request-Id: ${error.request_id}`)
    expect((await sb.api.get('/v1/payments').set(sb.auth()).expect(200)).body.pagination.total).toBe(0)
  })

  it('a CR/LF pair in a header ends it: the next line is a header the client sent, and the answer echoes neither', async () => {
    sb = await startTestSandbox()
    const answer = await rawRequest(sb.url, `GET /v1/wallets?limit=1 HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer ${DEFAULT_KEY}\r\nIdempotency-Key: abc\r\n${INJECTED}: 1`, '')
    expect(answer).toMatch(/^HTTP\/1\.1 200 /)
    expect(headerNames(answer)).not.toContain(INJECTED.toLowerCase())
    expect(headerNames(answer)).not.toContain('idempotency-key')
  })

  it('an Idempotency-Key with a control character the parser lets through is 400 parameter_invalid naming it', async () => {
    sb = await startTestSandbox()
    const res = await sb.api.post('/v1/wallets').set(sb.auth()).set('Idempotency-Key', 'abc\tdef').send({ name: 'n', currency: 'SOL', network: 'solana' }).expect(400)
    expect(res.body.error).toMatchObject({ code: 'parameter_invalid', param: 'Idempotency-Key' })
  })

  it('metadata and descriptions with CR/LF reach neither the response headers nor the webhook headers', async () => {
    sb = await startTestSandbox({ settle: 'instant' })
    receiver = await startWebhookReceiver()
    const endpoint = (await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: receiver.url, description: `hooks\r\n${INJECTED}: endpoint` }).expect(201)).body.data
    receiver.secret = endpoint.secret
    const wallet = await institutionalWallet(sb, 'solana', 'SOL')
    const payment = {
      amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: RECIPIENT,
      description: `rent\r\n${INJECTED}: description`,
      metadata: { [`key\r\n${INJECTED}`]: 'x', order: `42\r\n${INJECTED}: metadata\r\n\r\n<html>` },
    }
    const created = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'hygiene-1').send(payment).expect(201)
    expect(Object.keys(created.headers)).not.toContain(INJECTED.toLowerCase())
    expect(created.body.data.metadata.order).toBe(`42\r\n${INJECTED}: metadata\r\n\r\n<html>`)
    const replayed = await sb.api.post('/v1/payments').set(sb.auth()).set('Idempotency-Key', 'hygiene-1').send(payment).expect(201)
    expect(replayed.headers['idempotent-replayed']).toBe('true')
    expect(Object.keys(replayed.headers)).not.toContain(INJECTED.toLowerCase())

    const received = await receiver.waitFor(3)
    for (const webhook of received) {
      expect(Object.keys(webhook.headers)).not.toContain(INJECTED.toLowerCase())
      for (const value of Object.values(webhook.headers)) expect(String(value)).not.toMatch(/[\r\n]/)
      expect(webhook.verifyError).toBeNull()
    }
    expect(received[0]!.event.data.object).toMatchObject({ description: `rent\r\n${INJECTED}: description` })
  })
})

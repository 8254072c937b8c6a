import { connect, createServer as createNetServer, type AddressInfo, type Server, type Socket } from 'node:net'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createWebhookReceiver } from '../../../src/client/webhook-receiver.js'
import { createControlClient } from '../../../src/client/control-client.js'
import { DEFAULT_API_KEY as DEFAULT_KEY } from '../../../src/cli/terminal/defaults.js'
import { EVENT_TYPES } from '../../../src/model/events.js'
import { buildIfNeeded, killAll, launch, lineOf, runToExit, startCli, type CliProcess } from '../../helpers/cli-process.js'

/** `wallet-sandbox listen` as a child process against a real sandbox (CONTRACT.md section 21). */

beforeAll(buildIfNeeded, 180_000)
afterEach(killAll)

const SANDBOX = ['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0']
/** listen pads types to the longest, settlement.step_completed. */
const TYPE_WIDTH = Math.max(...EVENT_TYPES.map((type) => type.length))

/** Starts listen and resolves once it has said Ready (on stderr under --json). */
async function listening(baseUrl: string, args: string[] = [], key?: string): Promise<CliProcess> {
  const proc = launch(['listen', ...args], { env: { WALLET_SANDBOX_BASE_URL: baseUrl, ...(key ? { WALLET_SANDBOX_API_KEY: key } : {}) } })
  await lineOf(proc, (line) => (line === 'Ready' ? line : undefined), { stream: args.includes('--json') ? 'stderr' : 'stdout' })
  return proc
}
const eventLines = (proc: CliProcess) => proc.stdout().split('\n').slice(1).filter((line) => /^\d{4}-/.test(line))

/** Resolves once `count` lines after Ready match. */
const linesMatching = (proc: CliProcess, pattern: RegExp, count: number) =>
  lineOf(proc, () => (proc.stdout().split('\n').filter((line) => pattern.test(line)).length >= count ? true : undefined), { timeoutMs: 30_000 })

/** A TCP proxy on a port of its own to `target`, that can be closed (its connections cut) and opened again on the same port. */
async function startProxy(target: URL) {
  const sockets = new Set<Socket>()
  let server: Server | undefined
  let port = 0
  const open = () =>
    new Promise<void>((resolve) => {
      server = createNetServer((client) => {
        const upstream = connect(Number(target.port), target.hostname)
        for (const socket of [client, upstream]) {
          sockets.add(socket)
          socket.on('close', () => sockets.delete(socket))
          socket.on('error', () => socket.destroy())
        }
        client.pipe(upstream).pipe(client)
        client.on('close', () => upstream.destroy())
        upstream.on('close', () => client.destroy())
      })
      server.listen(port, '127.0.0.1', () => {
        port = (server!.address() as AddressInfo).port
        resolve()
      })
    })
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy()
      server!.close(() => resolve())
    })
  await open()
  return { url: `http://127.0.0.1:${port}`, open, close }
}

describe('wallet-sandbox listen', () => {
  it('says Ready first, then one line per event of the account as it happens: time, type, event id, object id', async () => {
    const sandbox = await startCli(SANDBOX)
    const control = createControlClient({ baseUrl: sandbox.ready.base_url })
    const { key } = await control.createKey()
    // An event from before listening is not printed.
    await runToExit(['trigger', 'payment.created', '--base-url', sandbox.ready.base_url, '--api-key', key])
    const proc = await listening(sandbox.ready.base_url, [], key)
    const triggered = await runToExit(['trigger', 'payment.failed', '--base-url', sandbox.ready.base_url, '--api-key', key, '--json'])
    const report = JSON.parse(triggered.stdout) as { objects: Array<{ id: string }>; events: Array<{ type: string; id: string }> }
    await linesMatching(proc, /payment\.failed/, 1)
    expect(proc.stdout().split('\n')[0]).toBe('Ready')
    expect(eventLines(proc)).toEqual(report.events.map((event) => `2026-01-01T00:00:00.000Z  ${event.type.padEnd(TYPE_WIDTH)}  ${event.id}  ${report.objects[0]!.id}`))
    proc.child.kill('SIGINT')
    expect(await proc.exited).toEqual({ code: 0, signal: null })
  })

  it('filters with --events, and prints each event as its JSON with --json, and nothing else on stdout (listen --json | jq)', async () => {
    const sandbox = await startCli(SANDBOX)
    const receiver = await createWebhookReceiver()
    const proc = await listening(sandbox.ready.base_url, ['--events', 'order.*,payment.failed', '--json', '--forward-to', receiver.url])
    await runToExit(['trigger', 'payment.succeeded', '--base-url', sandbox.ready.base_url])
    await runToExit(['trigger', 'order.cancelled', '--base-url', sandbox.ready.base_url])
    await linesMatching(proc, /order\.cancelled/, 1)
    await lineOf(proc, (line) => (line.startsWith('[400] POST') && proc.stderr().split('[400] POST').length > 2 ? true : undefined), { stream: 'stderr' })
    // Every line of stdout is an event; Ready, the forwarding secret and the forwards' answers are on stderr.
    const events = proc.stdout().split('\n').filter(Boolean).map((line) => JSON.parse(line) as { type: string; object: string })
    expect(proc.stderr().split('\n')).toEqual(expect.arrayContaining(['Ready', expect.stringMatching(/^Forwarding to /), expect.stringMatching(/^\[400\] POST /)]))
    await receiver.close()
    expect(events.map((event) => event.type)).toEqual(['order.created', 'order.cancelled'])
    expect(events[0]!.object).toBe('event')
  })

  it('forwards 100 events in order, signed with the secret --print-secret prints, to a receiver that verifies each', async () => {
    const sandbox = await startCli([...SANDBOX, '--seed', 'forwarding'])
    const receiver = await createWebhookReceiver()
    const printed = await runToExit(['listen', '--forward-to', receiver.url, '--print-secret', '--base-url', sandbox.ready.base_url])
    expect(printed.stdout).toMatch(/^whsec_[A-Za-z0-9+/]+=*\n$/)
    receiver.secret = printed.stdout.trim()
    // One for the sandbox and the account, whatever the URL: localhost or 127.0.0.1, a trailing slash, no scheme, none.
    const port = new URL(receiver.url).port
    for (const url of [receiver.url, `${receiver.url}/`, `http://localhost:${port}/`, `localhost:${port}/webhooks`, undefined]) {
      const again = await runToExit(['listen', ...(url === undefined ? [] : ['--forward-to', url]), '--print-secret', '--base-url', sandbox.ready.base_url])
      expect(again.stdout, String(url)).toBe(printed.stdout)
    }
    const other = await runToExit(['listen', '--forward-to', receiver.url, '--print-secret', '--base-url', sandbox.ready.base_url, '--api-key', 'sk_test_another_account_1'])
    expect(other.stdout).toMatch(/^whsec_/)
    expect(other.stdout).not.toBe(printed.stdout)

    const proc = await listening(sandbox.ready.base_url, ['--forward-to', receiver.url])
    expect(proc.stderr()).toContain(`Forwarding to ${receiver.url}, signed with ${receiver.secret}`)
    const control = createControlClient({ baseUrl: sandbox.ready.base_url })
    const [wallet] = await (await fetch(`${sandbox.ready.url}/wallets?currency=USDC&network=polygon`, { headers: { authorization: 'Bearer sk_test_sandbox_default_key' } })).json().then((body) => (body as { data: Array<{ id: string }> }).data)
    for (let i = 0; i < 100; i++) {
      await fetch(`${sandbox.ready.url}/payments`, {
        method: 'POST', headers: { authorization: 'Bearer sk_test_sandbox_default_key', 'content-type': 'application/json' },
        body: JSON.stringify({ amount: '0.01', currency: 'USDC', source_wallet: wallet!.id, recipient: '0x52908400098527886E0F7030069857D2E4169EE7' }),
      })
    }
    await linesMatching(proc, /^\[200\] POST /, 100)
    const logged = (await control.events({ api_key: 'sk_test_sandbox_default_key', limit: 100 })).data
    expect(receiver.received.map((delivery) => delivery.verified)).toEqual(Array(100).fill(true))
    expect(receiver.received.map((delivery) => delivery.event!.id)).toEqual(logged.map((event) => event.id))
    expect(receiver.received.map((delivery) => delivery.body)).toEqual(logged.map((event) => JSON.stringify(event)))
    expect(proc.stdout()).toContain(`[200] POST ${receiver.url} ${logged[99]!.id}\n`)
    await receiver.close()
  }, 60_000)

  it('forwards to a URL typed without a scheme as http, and refuses one it cannot take, naming what was typed', async () => {
    const sandbox = await startCli(SANDBOX)
    const receiver = await createWebhookReceiver()
    receiver.secret = (await runToExit(['listen', '--print-secret', '--base-url', sandbox.ready.base_url])).stdout.trim()
    const typed = receiver.url.replace(/^http:\/\//, '')
    const proc = await listening(sandbox.ready.base_url, ['--forward-to', typed])
    await runToExit(['trigger', 'payment.created', '--base-url', sandbox.ready.base_url])
    await linesMatching(proc, /^\[200\] POST /, 1)
    expect(proc.stdout()).toContain(`[200] POST ${receiver.url} evt_`)
    expect(receiver.received.map((delivery) => delivery.verified)).toEqual([true])
    await receiver.close()
    const refused = await runToExit(['listen', '--forward-to', 'ftp://localhost:3000/webhooks', '--base-url', sandbox.ready.base_url])
    expect([refused.code, refused.stderr]).toEqual([1, 'wallet-sandbox listen: --forward-to takes an http or https URL such as http://localhost:3000/webhooks, or one without a scheme (localhost:3000/webhooks, http then); got "ftp://localhost:3000/webhooks"\n'])
  })

  it('says how a forward failed, in its own words, and goes on', async () => {
    const sandbox = await startCli(SANDBOX)
    const receiver = await createWebhookReceiver({ secret: 'whsec_' + Buffer.alloc(32, 1).toString('base64') })
    const proc = await listening(sandbox.ready.base_url, ['--forward-to', receiver.url, '--secret', 'whsec_' + Buffer.alloc(32, 2).toString('base64')])
    await runToExit(['trigger', 'payment.created', '--base-url', sandbox.ready.base_url])
    await linesMatching(proc, /^\[400\] POST /, 1)
    await receiver.close()
    await runToExit(['trigger', 'payment.created', '--base-url', sandbox.ready.base_url])
    await linesMatching(proc, /^\[ERR\] POST .*ECONNREFUSED/, 1)
  })

  it('survives a restart of the sandbox: says so, reconnects, and goes on printing', async () => {
    const first = await startCli(SANDBOX)
    const { port, base_url: baseUrl } = first.ready
    const proc = await listening(baseUrl)
    await runToExit(['trigger', 'payment.created', '--base-url', baseUrl])
    await linesMatching(proc, /payment\.created/, 1)
    const eventId = eventLines(proc)[0]!.split(/\s+/)[2]
    first.child.kill('SIGTERM')
    await first.exited
    await lineOf(proc, (line) => (line.includes('reconnecting') ? line : undefined), { stream: 'stderr' })
    await startCli([...SANDBOX, '--port', String(port)])
    await runToExit(['trigger', 'payment.created', '--base-url', baseUrl])
    await linesMatching(proc, /payment\.created/, 2)
    expect(proc.stderr()).toMatch(new RegExp(`lost the sandbox at ${baseUrl} \\(.*\\); reconnecting…\\nreconnected to ${baseUrl} \\(restarted: its logs begin again\\)\\n`))
    // Same seed, same ids: the new sandbox's first event has the id listen read last before the
    // restart. Reading on after that id would have skipped it; listen reads the new log from its first.
    expect(eventLines(proc).map((line) => line.split(/\s+/)[2])).toEqual([eventId, eventId])
  }, 60_000)

  it('goes on where it was after losing its connection to the same sandbox: nothing printed twice', async () => {
    const sandbox = await startCli(SANDBOX)
    // A proxy between listen and the sandbox, closed and opened again: the sandbox never stops.
    const proxy = await startProxy(new URL(sandbox.ready.base_url))
    const proc = await listening(proxy.url)
    await runToExit(['trigger', 'payment.created', '--base-url', sandbox.ready.base_url])
    await linesMatching(proc, /payment\.created/, 1)
    await proxy.close()
    await lineOf(proc, (line) => (line.includes('reconnecting') ? line : undefined), { stream: 'stderr' })
    await proxy.open()
    await runToExit(['trigger', 'payment.failed', '--base-url', sandbox.ready.base_url])
    await linesMatching(proc, /payment\.failed/, 1)
    expect(proc.stderr()).toMatch(new RegExp(`reconnected to ${proxy.url}\\n`))
    expect(proc.stderr()).not.toContain('restarted')
    expect(eventLines(proc).map((line) => line.split(/\s+/)[1])).toEqual(['payment.created', 'payment.created', 'payment.failed'])
    await proxy.close()
  })

  it('reads on from the first event when its account is reset under it, and says so', async () => {
    const sandbox = await startCli(SANDBOX)
    const baseUrl = sandbox.ready.base_url
    const proc = await listening(baseUrl)
    await runToExit(['trigger', 'payment.created', '--base-url', baseUrl])
    await linesMatching(proc, /payment\.created/, 1)
    const eventId = eventLines(proc)[0]!.split(/\s+/)[2]
    await createControlClient({ baseUrl }).reset({ api_key: DEFAULT_KEY })
    await runToExit(['trigger', 'payment.failed', '--base-url', baseUrl])
    await linesMatching(proc, /payment\.failed/, 1)
    // Which of the two it says depends on whether listen's read after that id began before the reset
    // (the id is back, meaning another event: the page's resets tell) or after it (the id is unknown).
    expect(proc.stderr()).toMatch(new RegExp(`the account was reset: reading its events again from the first|the sandbox no longer holds ${eventId} \\(the account was reset`))
    // A reset starts the account's ids again: its payment.created has the id of the one before,
    // and listen prints it, then its payment.failed.
    const lines = eventLines(proc).map((line) => line.split(/\s+/))
    expect(lines.map(([, type]) => type)).toEqual(['payment.created', 'payment.created', 'payment.failed'])
    expect(lines[1]![2]).toBe(eventId)
  })

  it('refuses a bad --events filter before Ready, naming it', async () => {
    const sandbox = await startCli(SANDBOX)
    const { code, stdout, stderr } = await runToExit(['listen', '--events', 'payment.bogus', '--base-url', sandbox.ready.base_url])
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toMatch(/^wallet-sandbox listen: --events: type takes event types .*got "payment\.bogus"\.?\n$/)
  })
})

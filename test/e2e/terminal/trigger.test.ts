import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createControlClient } from '../../../src/client/control-client.js'
import { EVENT_TYPES } from '../../../src/model/events.js'
import { BIN, buildIfNeeded, killAll, runToExit, startCli, type CliProcess, type ReadyLine } from '../../helpers/cli-process.js'
import { refusedUrl } from '../../helpers/webhook-receiver.js'

/** `wallet-sandbox trigger` as a child process against real sandboxes (CONTRACT.md section 21). */

type Sandbox = CliProcess & { ready: ReadyLine }
let manual: Sandbox
let instant: Sandbox
beforeAll(async () => {
  buildIfNeeded()
  manual = await startCli(['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0'])
  instant = await startCli(['--settle', 'instant', '--rate-limit', '0', '--seed', 'instant'])
}, 180_000)
afterAll(killAll)

const trigger = (sandbox: Sandbox, args: string[], key?: string) =>
  runToExit(['trigger', ...args], { env: { WALLET_SANDBOX_BASE_URL: sandbox.ready.base_url, ...(key ? { WALLET_SANDBOX_API_KEY: key } : {}) } })
const control = (sandbox: Sandbox) => createControlClient({ baseUrl: sandbox.ready.base_url })
/** A key of its own per test: a fresh account, so that what one test triggers never shows in another. */
const freshKey = async (sandbox: Sandbox) => (await control(sandbox).createKey()).key

describe('trigger <type>, for every type of the event catalogue', () => {
  it('lists every type the sandbox emits, with what it creates', async () => {
    const { code, stdout } = await trigger(manual, ['--list', '--json'])
    expect(code).toBe(0)
    expect(JSON.parse(stdout).map((row: { type: string }) => row.type)).toEqual([...EVENT_TYPES])
  })

  for (const [mode, sandbox] of [['manual', () => manual], ['instant', () => instant]] as const) {
    it.each(EVENT_TYPES)(`emits %s under --settle ${mode}, as the events route confirms`, async (type) => {
      const key = await freshKey(sandbox())
      const { code, stdout, stderr } = await trigger(sandbox(), [type, '--json'], key)
      expect(code, stderr).toBe(0)
      const report = JSON.parse(stdout) as { objects: Array<{ object: string; id: string }>; events: Array<{ type: string; id: string }> }
      const emitted = report.events.find((event) => event.type === type)
      expect(emitted, stdout).toBeDefined()
      const logged = await control(sandbox()).events({ api_key: key, type })
      expect(logged.data.map((event) => event.id)).toContain(emitted!.id)
      expect(report.objects[0]!.object).toBe(type.split('.')[0])
    }, 30_000)
  }
})

describe('trigger, step by step', () => {
  it.each(['order.expired', 'settlement.refunded'])('%s moves its own account’s clock, never the sandbox’s', async (type) => {
    const key = await freshKey(manual)
    const before = await control(manual).clock()
    const { code, stdout, stderr } = await trigger(manual, [type], key)
    expect(code, stderr).toBe(0)
    expect(stdout).toMatch(/^POST \/_sandbox\/clock\/advance \{"ms":\d+,"api_key":"…"\}$/m)
    expect(await control(manual).clock()).toEqual(before)
    expect((await control(manual).clock({ api_key: key })).offset_ms).toBeGreaterThan(0)
  }, 30_000)

  it('prints each step: what it created, the calls it made and the events that came of them', async () => {
    const { code, stdout } = await trigger(manual, ['payment.failed'], await freshKey(manual))
    expect(code).toBe(0)
    expect(stdout).toMatch(/^created (pay_\w+)\npayment\.created evt_\w+\nPOST \/_sandbox\/payments\/\1\/fail\npayment\.failed evt_\w+\n$/)
  })

  it('overrides the create request with --set, dotted for nesting', async () => {
    const key = await freshKey(manual)
    const { code, stdout } = await trigger(manual, ['payment.succeeded', '--set', 'amount=25.00', '--set', 'network=solana', '--set', 'metadata.order=42', '--json'], key)
    expect(code).toBe(0)
    const [payment] = await control(manual).payments((await control(manual).request<Array<{ id: string }>>('GET', `/accounts?api_key=${key}`))[0]!.id)
    expect(payment).toMatchObject({ id: JSON.parse(stdout).objects[0].id, amount: '25.00', network: 'solana', metadata: { order: '42' }, status: 'completed' })
  })

  it('refuses an unknown field before it creates anything, naming the fields allowed', async () => {
    const key = await freshKey(manual)
    const { code, stdout, stderr } = await trigger(manual, ['payment.failed', '--set', 'colour=red'], key)
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe('wallet-sandbox trigger: a payment has no field colour to set; the fields are amount, currency, network, source_wallet, recipient, description, metadata.*\n')
    expect((await control(manual).events({ api_key: key })).data).toEqual([])
  })

  it('comes back with the API\'s own message, exit code 1, for a value the API refuses', async () => {
    const { code, stderr } = await trigger(manual, ['payment.created', '--set', 'amount=1e3'], await freshKey(manual))
    expect(code).toBe(1)
    expect(stderr).toMatch(/^wallet-sandbox trigger: .*amount.* \(parameter_invalid, amount\)\n$/)
  })

  it('drives an existing object with --on, and refuses one in a state that cannot produce the event, saying which can', async () => {
    const key = await freshKey(manual)
    const created = JSON.parse((await trigger(manual, ['order.created', '--json'], key)).stdout).objects[0].id as string
    const filled = await trigger(manual, ['order.filled', '--on', created], key)
    expect(filled.code, filled.stderr).toBe(0)
    expect(filled.stdout).toMatch(new RegExp(`^POST /_sandbox/orders/${created}/fill .*\\norder\\.filled evt_\\w+\\n$`))
    const again = await trigger(manual, ['order.cancelled', '--on', created], key)
    expect(again).toMatchObject({ code: 1, stderr: `wallet-sandbox trigger: order ${created} is filled; order.cancelled can come from an order that is open or partially_filled\n` })
    expect((await trigger(manual, ['payment.failed', '--on', created], key)).stderr).toBe(`wallet-sandbox trigger: payment.failed needs a payment; ${created} is an order\n`)
    expect((await trigger(manual, ['order.created', '--on', created], key)).stderr).toBe('wallet-sandbox trigger: order.created happens when an order is created; --on drives one that exists: leave it out\n')
  })

  it('refuses an event type that does not exist, naming the resource\'s types', async () => {
    const { code, stderr } = await trigger(manual, ['payment.refunded'])
    expect(code).toBe(1)
    expect(stderr).toBe('wallet-sandbox trigger: there is no event type "payment.refunded"; the payment events are payment.created, payment.processing, payment.succeeded, payment.failed\n')
  })
})

describe('where the terminal commands look', () => {
  it.each(['trigger', 'listen', 'tail'])('%s without a sandbox there says where it looked and how to start one, exit code 1', async (command) => {
    const nowhere = new URL(await refusedUrl()).origin
    const args = command === 'trigger' ? ['trigger', 'payment.failed'] : [command]
    const { code, stdout, stderr } = await runToExit([...args, '--base-url', nowhere])
    expect({ code, stdout }).toEqual({ code: 1, stdout: '' })
    expect(stderr).toBe(`wallet-sandbox ${command}: no sandbox at ${nowhere} (--base-url): connect ECONNREFUSED ${nowhere.slice(7)}. Start one with \`npx wallet-sandbox\`, or point --base-url at yours.\n`)
    const fromDefault = await runToExit(args, { env: { WALLET_SANDBOX_BASE_URL: nowhere } })
    expect(fromDefault.stderr).toContain(`no sandbox at ${nowhere} (WALLET_SANDBOX_BASE_URL)`)
  })

  it('finds the sandbox and the key that exec names', async () => {
    const script = `process.exit(require('child_process').spawnSync(process.execPath, [${JSON.stringify(BIN)}, 'trigger', 'payment.created'], { stdio: 'inherit' }).status)`
    // A sandbox that stands still: under --settle auto the payment could move on while trigger reports.
    const { code, stdout } = await runToExit(['exec', '--settle', 'manual', '--', process.execPath, '-e', script])
    expect(code).toBe(0)
    expect(stdout).toMatch(/^created pay_\w+\npayment\.created evt_\w+\n$/)
  })

  it('takes the key from --api-key, else WALLET_SANDBOX_API_KEY', async () => {
    const [flagKey, envKey] = [await freshKey(manual), await freshKey(manual)]
    await runToExit(['trigger', 'payment.created', '--base-url', manual.ready.base_url, '--api-key', flagKey], { env: { WALLET_SANDBOX_API_KEY: envKey } })
    await runToExit(['trigger', 'payout.created', '--base-url', manual.ready.base_url], { env: { WALLET_SANDBOX_API_KEY: envKey } })
    expect((await control(manual).events({ api_key: flagKey })).data.map((event) => event.type)).toEqual(['payment.created'])
    expect((await control(manual).events({ api_key: envKey })).data.map((event) => event.type)).toContain('payout.created')
  })
})

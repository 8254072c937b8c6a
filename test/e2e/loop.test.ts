import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { fileURLToPath } from 'node:url'
import { afterEach, expect, it } from 'vitest'
import { closeLoopClients, LIFECYCLE_TYPES, prepareLoopClient, runLoop, startLoopReceiver, type LoopClient, type LoopReceiver } from '../../bench/loop-driver.mjs'
import { startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'

// The users' loop of `npm run bench:loop`, short and untimed: what is checked is that it holds.
let sb: TestSandbox | undefined
let receiver: LoopReceiver | undefined
let clients: LoopClient[] = []
let floor: ChildProcess | undefined
afterEach(async () => {
  closeLoopClients(clients)
  clients = []
  await sb?.close()
  floor?.kill()
  floor = undefined
  await receiver?.close()
  sb = receiver = undefined
})

async function setup(count: number) {
  sb = await startTestSandbox()
  receiver = await startLoopReceiver()
  clients = await Promise.all(Array.from({ length: count }, (_, i) => prepareLoopClient(sb!.url, receiver!, i, `sk_test_loop_client_${i}`)))
}

it('delivers every lifecycle webhook once, verified, in order, to one client', async () => {
  await setup(1)
  const ids = await runLoop(clients, 10)
  expect(new Set(ids).size).toBe(10)
  expect(receiver!.check(ids)).toEqual([])
  expect(receiver!.received()).toBe(10 * LIFECYCLE_TYPES.length)
})

it('delivers every lifecycle webhook once, verified, in order, to 4 clients on 4 accounts in parallel', async () => {
  await setup(4)
  const ids = await runLoop(clients, 5)
  expect(new Set(ids).size).toBe(20)
  expect(receiver!.check(ids)).toEqual([])
  const accounts = (await sb!.api.get('/_sandbox/accounts').expect(200)).body.data as Array<{ keys: Array<{ key: string }> }>
  expect(accounts.filter((a) => a.keys.some((k) => k.key.startsWith('sk_test_loop_client_')))).toHaveLength(4)
})

it('reports a webhook that fails verification instead of counting it', async () => {
  await setup(1)
  receiver!.setSecret(0, `whsec_${Buffer.alloc(32, 1).toString('base64')}`)
  await expect(runLoop(clients, 1)).rejects.toThrow(/failed verification/)
})

// bench:loop measures the sandbox against this floor: it must pass the same checks, or the ratio means nothing.
it('the floor of bench:loop passes the same loop: every webhook once, verified, in order', async () => {
  floor = spawn(process.execPath, [fileURLToPath(new URL('../../bench/fixtures/loop-floor.mjs', import.meta.url)), '--port', '0'], { stdio: ['ignore', 'pipe', 'inherit'] })
  const [line] = (await once(floor.stdout!, 'data')) as [Buffer]
  const base = `http://127.0.0.1:${Number(line.toString())}`
  receiver = await startLoopReceiver()
  clients = await Promise.all(Array.from({ length: 2 }, (_, i) => prepareLoopClient(base, receiver!, i, `sk_test_floor_${i}`)))
  const ids = await runLoop(clients, 5)
  expect(new Set(ids).size).toBe(10)
  expect(receiver.check(ids)).toEqual([])
})

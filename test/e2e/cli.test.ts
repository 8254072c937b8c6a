import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { buildIfNeeded, killAll, launch, lineOf, runToExit, type CliProcess } from '../helpers/cli-process.js'
import { startTestSandbox } from '../helpers/start-test-sandbox.js'

/** The real command line: `node bin/wallet-sandbox.js`, on port 0, as a user starts it. */

const KEY = 'sk_test_sandbox_default_key'
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7'

interface Running extends CliProcess {
  url: string
}

let tempDir: string

beforeAll(() => {
  buildIfNeeded()
  tempDir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-cli-'))
}, 180_000)

afterEach(killAll)

afterAll(() => {
  rmSync(tempDir, { recursive: true, force: true })
})

/** Starts the CLI and resolves once its whole banner is out, with the URL it listens on. */
async function start(args: string[], env: Record<string, string> = {}): Promise<Running> {
  const proc = launch(['--port', '0', ...args], { env })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 15 s:\n${proc.stdout()}\n${proc.stderr()}`)), 15_000)
    const check = () => {
      const match = /listening on (http:\/\/[\d.:[\]]+)/.exec(proc.stdout())
      // The banner may arrive in pieces; its last row is the mode (a field of the JSON banner).
      const complete = /\n\s+mode\s.*\n|"mode":"[^"]*"/.test(proc.stdout())
      if (match && complete) {
        clearTimeout(timer)
        resolve(match[1]!)
      }
    }
    proc.child.stdout!.on('data', check)
    void proc.exited.then(({ code }) => {
      clearTimeout(timer)
      reject(new Error(`exited with ${code} before listening:\n${proc.stdout()}\n${proc.stderr()}`))
    })
  })
  return { ...proc, url }
}

async function api(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { Authorization: `Bearer ${KEY}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await res.text()
  return { status: res.status, text, body: JSON.parse(text), headers: res.headers }
}

/** SIGTERM, then the exit code; the output is attached to tell why when it is not the expected one. */
async function stop(proc: Running): Promise<string> {
  proc.child.kill('SIGTERM')
  const { code, signal } = await proc.exited
  return code === 0 ? 'exit 0' : `exit ${code} signal ${signal}\n${proc.stdout()}\n${proc.stderr()}`
}

describe('start-up', () => {
  it('--port 0 picks a free port and the banner says which, with the REST URL, the default key and the mode', async () => {
    const proc = await start(['--log-format', 'pretty', '--auth', 'strict'])
    const port = Number(new URL(proc.url).port)
    expect(port).toBeGreaterThan(0)
    expect(proc.stdout()).toContain(`${proc.url}/v1`)
    expect(proc.stdout()).toContain(KEY)
    expect(proc.stdout()).toMatch(/auth=strict/)
    const health = await fetch(`${proc.url}/_sandbox/health`)
    expect(health.status).toBe(200)
    expect((await api(proc.url, 'GET', '/v1/wallets')).status).toBe(200)
    expect(await stop(proc)).toBe('exit 0')
  })

  it('serves the dashboard the banner names, from the bundled CLI', async () => {
    const proc = await start(['--log-format', 'pretty', '--control-token', 'cli-secret'])
    const dashboardUrl = /dashboard\s+(\S+)/.exec(proc.stdout())![1]!
    expect(dashboardUrl).toBe(`${proc.url}/_sandbox/ui`)
    const page = await fetch(dashboardUrl)
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8'])
    expect(await page.text()).toContain('/_sandbox/ui/app.js')
    expect((await fetch(`${proc.url}/_sandbox/ui/app.js`)).status).toBe(200)
    expect(await stop(proc)).toBe('exit 0')
  })

  it.each([
    ['by default, without the control API\'s requests', [], {}, ['/v1/wallets']],
    ['with --log-control, with them', ['--log-control'], {}, ['/_sandbox/requests', '/v1/wallets']],
    ['with WALLET_SANDBOX_LOG_CONTROL, with them', [], { WALLET_SANDBOX_LOG_CONTROL: 'true' }, ['/_sandbox/requests', '/v1/wallets']],
  ])('writes the request log %s', async (_name, flags, env, paths) => {
    const proc = await start(['--log-format', 'json', ...flags], env)
    // What tail does four times a second, then the app's own request.
    expect((await fetch(`${proc.url}/_sandbox/requests`)).status).toBe(200)
    expect((await api(proc.url, 'GET', '/v1/wallets')).status).toBe(200)
    const logged = () => proc.stdout().split('\n').filter((line) => line.includes('"message":"request"')).map((line) => (JSON.parse(line) as { path: string }).path)
    await lineOf(proc, (line) => (line.includes('"path":"/v1/wallets"') ? true : undefined))
    expect(logged()).toEqual(paths)
    expect(await stop(proc)).toBe('exit 0')
  })

  it('answers a mistyped flag with the error, the flag it may mean and one line to --help, exit code 1', async () => {
    const { code, stdout, stderr } = await runToExit(['--clok', 'manual'])
    expect({ code, stdout, stderr }).toEqual({ code: 1, stdout: '', stderr: "error: unknown option '--clok'\n(Did you mean --clock?)\n(wallet-sandbox --help lists the options)\n" })
  })

  it('seeds the same wallets (names drawn by faker included) as the library does for the same seed', async () => {
    // The bundle carries only the person names of faker's English locale (scripts/bundle-cli.mjs).
    const walletsOf = async (url: string, key: string) =>
      ((await (await fetch(`${url}/v1/wallets?limit=100`, { headers: { Authorization: `Bearer ${key}` } })).json()) as { data: Array<{ id: string; name: string; metadata: unknown }> }).data
    const key = 'sk_test_names_in_the_bundle'
    const proc = await start(['--seed', 'names'])
    const library = await startTestSandbox({ seed: 'names' })
    try {
      for (const apiKey of [KEY, key]) {
        const fromCli = await walletsOf(proc.url, apiKey)
        expect(fromCli.filter((wallet) => wallet.name.includes('(')).length).toBeGreaterThan(0)
        expect(fromCli.map(({ id, name, metadata }) => ({ id, name, metadata }))).toEqual((await walletsOf(library.url, apiKey)).map(({ id, name, metadata }) => ({ id, name, metadata })))
      }
    } finally {
      await library.close()
    }
    expect(await stop(proc)).toBe('exit 0')
  })

  it('reads WALLET_SANDBOX_* variables, and a flag wins over its variable', async () => {
    const secret = Buffer.alloc(32, 9).toString('base64')
    const proc = await start(['--log-format', 'pretty', '--envelope', 'bare'], { WALLET_SANDBOX_AUTH: 'strict', WALLET_SANDBOX_ENVELOPE: 'wrapped', WALLET_SANDBOX_LENIENT: '1', WALLET_SANDBOX_SIGNING_SECRET: secret })
    expect(proc.stdout()).toMatch(/auth=strict envelope=bare/)
    expect(proc.stdout()).toMatch(/\blenient\b/)
    expect(proc.stdout()).toMatch(/\bsignatures=required\b/)
    expect(proc.stdout()).not.toContain(secret)
    expect((await api(proc.url, 'GET', '/v1/wallets')).status).toBe(401)
    expect(await stop(proc)).toBe('exit 0')
  })

  it.each([
    [['--port', 'abc'], {}, '--port', 'WALLET_SANDBOX_PORT'],
    [['--auth', 'maybe'], {}, '--auth', 'WALLET_SANDBOX_AUTH'],
    [[], { WALLET_SANDBOX_RATE_LIMIT: 'lots' }, '--rate-limit', 'WALLET_SANDBOX_RATE_LIMIT'],
    [[], { WALLET_SANDBOX_LENIENT: 'yes' }, '--lenient', 'WALLET_SANDBOX_LENIENT'],
    [[], { WALLET_SANDBOX_SIGNING_SECRET: 'not base64!' }, '--signing-secret', 'WALLET_SANDBOX_SIGNING_SECRET'],
    [['--signature-max-age', '5 minutes'], {}, '--signature-max-age', 'WALLET_SANDBOX_SIGNATURE_MAX_AGE'],
  ])('invalid configuration %j %j exits 1 with a clear message', async (args, env, flag, variable) => {
    const { code, stderr } = await runToExit(args as string[], { env: env as Record<string, string> })
    expect(code).toBe(1)
    expect(stderr).toContain('Invalid configuration')
    expect(stderr).toContain(flag)
    expect(stderr).toContain(variable)
    expect(stderr).not.toMatch(/\n\s+at /)
  })

  it('a port in use exits 1 saying so', async () => {
    const blocker: Server = createServer()
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
    const { port } = blocker.address() as { port: number }
    try {
      const { code, stderr } = await runToExit(['--port', String(port)])
      expect(code).toBe(1)
      expect(stderr).toContain(`port ${port}`)
      expect(stderr).toContain('already in use')
      expect(stderr).not.toMatch(/\n\s+at /)
    } finally {
      await new Promise((resolve) => blocker.close(resolve))
    }
  })
})

describe('commands that print a document', () => {
  it('openapi prints the document GET /v1/openapi.json serves (built on demand, as the server builds it)', async () => {
    const proc = launch(['openapi'])
    const { code } = await proc.exited
    expect([code, proc.stderr()]).toEqual([0, ''])
    const printed = JSON.parse(proc.stdout()) as { openapi: string; paths: Record<string, unknown> }
    const server = await start([])
    const served = (await (await fetch(`${server.url}/v1/openapi.json`)).json()) as typeof printed
    expect(await stop(server)).toBe('exit 0')
    expect(printed.openapi).toBe('3.1.0')
    expect(Object.keys(printed.paths)).toEqual(Object.keys(served.paths))
  })

  it('a reader that stops early (`| head`) ends the command quietly, exit code 0', async () => {
    const proc = launch(['openapi'])
    proc.child.stdout!.once('data', () => proc.child.stdout!.destroy())
    const { code } = await proc.exited
    expect([code, proc.stderr()]).toEqual([0, ''])
  })
})

describe('--data-file', () => {
  it('keeps every wallet, payment, balance and idempotency key across a SIGTERM and a restart', async () => {
    const file = join(tempDir, 'round-trip.json')
    const flags = ['--data-file', file, '--settle', 'manual', '--rate-limit', '0']
    const first = await start(flags)

    const treasury = (await api(first.url, 'GET', '/v1/wallets?type=institutional&network=polygon&currency=USDC')).body.data[0]
    const savings = (await api(first.url, 'POST', '/v1/wallets', { name: 'Savings', currency: 'USDC', network: 'polygon', metadata: { external_user_id: 'cust_1' } })).body.data
    const frozen = (await api(first.url, 'POST', '/v1/wallets', { name: 'Frozen', currency: 'SOL', network: 'solana' })).body.data
    await api(first.url, 'PUT', `/v1/wallets/${frozen.id}`, { status: 'frozen' })
    const payments = [
      await api(first.url, 'POST', '/v1/payments', { amount: '12.5', currency: 'USDC', source_wallet: treasury.id, recipient: EVM }, { 'Idempotency-Key': 'persisted-key' }),
      await api(first.url, 'POST', '/v1/payments', { amount: '100', currency: 'USDC', source_wallet: treasury.id, recipient: savings.id, description: 'Top-up' }),
      await api(first.url, 'POST', '/v1/payments', { amount: '0.000001', currency: 'USDC', source_wallet: treasury.id, recipient: EVM.toLowerCase() }),
    ]
    for (const payment of payments) expect(payment.status).toBe(201)
    const whitelisted = await api(first.url, 'POST', '/v1/whitelisted_addresses', { address: EVM, network: 'polygon', label: 'Exchange' })
    expect(whitelisted.status).toBe(201)
    const otherKey = { Authorization: 'Bearer sk_test_cli_second_account' }
    const otherWallets = (await api(first.url, 'GET', '/v1/wallets?limit=100', undefined, otherKey)).body.data

    const before = {
      wallets: (await api(first.url, 'GET', '/v1/wallets?limit=100')).body.data,
      payments: (await api(first.url, 'GET', '/v1/payments?limit=100')).body.data,
      whitelist: (await api(first.url, 'GET', '/v1/whitelisted_addresses')).body.data,
      balances: await Promise.all(
        [treasury.id, savings.id, frozen.id].map(async (id) => (await api(first.url, 'GET', `/v1/wallets/${id}/balance`)).body.data),
      ),
    }
    expect(before.payments).toHaveLength(3)
    expect(await stop(first)).toBe('exit 0')
    // A snapshot of one JSON record per line, and the journal beside it: every line is JSON.
    for (const path of [file, `${file}.journal.1`]) {
      expect(() => readFileSync(path, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line))).not.toThrow()
    }

    const second = await start(flags)
    for (const payment of payments) {
      const again = await api(second.url, 'GET', `/v1/payments/${payment.body.data.id}`)
      expect(again.status).toBe(200)
      expect(again.body.data).toEqual(payment.body.data)
    }
    expect((await api(second.url, 'GET', '/v1/wallets?limit=100')).body.data).toEqual(before.wallets)
    expect((await api(second.url, 'GET', '/v1/payments?limit=100')).body.data).toEqual(before.payments)
    expect((await api(second.url, 'GET', '/v1/whitelisted_addresses')).body.data).toEqual(before.whitelist)
    for (const balance of before.balances) {
      expect((await api(second.url, 'GET', `/v1/wallets/${balance.wallet_id}/balance`)).body.data).toEqual(balance)
    }
    expect(before.balances[0]).toMatchObject({ available_balance: '999887.499999', locked_balance: '112.500001', total_balance: '1000000.00' })
    expect((await api(second.url, 'GET', '/v1/wallets?limit=100', undefined, otherKey)).body.data).toEqual(otherWallets)

    // The stored answer replays, byte for byte, after the restart.
    const replay = await api(second.url, 'POST', '/v1/payments', { amount: '12.5', currency: 'USDC', source_wallet: treasury.id, recipient: EVM }, { 'Idempotency-Key': 'persisted-key' })
    expect(replay.headers.get('idempotent-replayed')).toBe('true')
    expect(replay.text).toBe(payments[0]!.text)

    // Ids go on from where they stopped: nothing new collides with what was there.
    const fresh = (await api(second.url, 'POST', '/v1/wallets', { name: 'After restart', currency: 'USDC', network: 'polygon' })).body.data
    expect(before.wallets.map((w: { id: string }) => w.id)).not.toContain(fresh.id)
    expect(await stop(second)).toBe('exit 0')
  })

  it('starts empty (seeded) when the file does not exist yet, and creates it', async () => {
    const file = join(tempDir, 'fresh.json')
    const proc = await start(['--data-file', file])
    expect((await api(proc.url, 'GET', '/v1/wallets?limit=1')).body.pagination.total).toBe(14)
    expect(await stop(proc)).toBe('exit 0')
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ format: 'wallet-sandbox/snapshot', version: 3 })
  })

  it.each([
    ['is not JSON', 'this is not JSON {', /not valid JSON/],
    ['is JSON of the wrong shape', JSON.stringify({ version: 1, accounts: 'nope', keys: [] }), /does not match/],
    ['holds null', 'null', /holds null where a ledger object/],
    ['holds an array', '[]', /holds an array where a ledger object/],
    ['has a control part of the wrong shape', JSON.stringify({ version: 1, accounts: [], keys: [], control: { faults: {} } }), /does not match[\s\S]*control\.faults/],
    ['has an unknown version', JSON.stringify({ version: 2, accounts: [], keys: [] }), /does not match/],
    ['has a wallet with a bad balance', JSON.stringify({ version: 1, accounts: [{ account: { id: 'acct_x', created_at: 'x', whitelist_enforced: false }, rng_state: [1, 2, 3, 4], wallets: [{ available: 'lots' }], payments: [], whitelist: [], webhooks: [], idempotency: [] }], keys: [] }), /does not match/],
    ['has a key of no account', JSON.stringify({ version: 1, accounts: [], keys: [{ key: 'sk_test_orphan', account_id: 'acct_gone', type: 'secret', scopes: ['*'], allowed_ips: [] }] }), /inconsistent at keys\[0\]\.account_id: no account 'acct_gone'/],
  ])('a data file that %s stops start-up with a message naming it, and is left untouched', async (_name, content, problem) => {
    const file = join(tempDir, `corrupt-${Math.random().toString(36).slice(2)}.json`)
    writeFileSync(file, content)
    const bytes = readFileSync(file)
    const { code, stderr } = await runToExit(['--port', '0', '--data-file', file])
    expect(code).not.toBe(0)
    expect(stderr).toContain(file)
    expect(stderr).toMatch(problem)
    expect(stderr).not.toMatch(/\n\s+at /)
    expect(readFileSync(file).equals(bytes)).toBe(true)
  })
})

import { execFile } from 'node:child_process'
import { request } from 'node:http'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import ts from 'typescript'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { put } from '../../src/store/changes.js'
import { encodePayment } from '../../src/store/data.js'
import { openStore } from '../../src/store/store.js'
import { ACCOUNT, payment, tenant, wallet } from '../helpers/store-records.js'
import { DEFAULT_KEY, institutionalWallet, startTestSandbox, type TestSandbox } from '../helpers/start-test-sandbox.js'
import { missingAnswers, runShell, shellBlocks, shownAnswers } from '../helpers/shell-examples.js'

/**
 * The examples of the docs pages that can be run and are not run elsewhere (the curl tour has
 * usage-tour.test.ts, the library page library.test.ts): each is taken from its page as printed,
 * so a page cannot drift from what the sandbox does.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const page = (name: string) => readFileSync(join(ROOT, 'docs', name), 'utf8')
const run = promisify(execFile)
/** The seed `npm start` runs with: the pages show its ids. */
const DEFAULT_SEED = 'wallet-sandbox'

describe('docs/control-api.md: reading an account’s balances', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED })
  })
  afterAll(() => sb.close())

  it('answers what the page shows after the pending payment it names', async () => {
    const [example] = shellBlocks(page('control-api.md')).filter((block) => block.includes('/balances'))
    expect(example).toContain('After a pending payment of 12.50 USDC')
    const treasury = await institutionalWallet(sb, 'polygon', 'USDC')
    await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '12.50', currency: 'USDC', source_wallet: treasury.id, recipient: '0x52908400098527886E0F7030069857D2E4169EE7' }).expect(201)
    const output = await runShell(example!, sb.url, ROOT)
    expect(shownAnswers(example!)).toHaveLength(1)
    expect(missingAnswers(output, shownAnswers(example!))).toEqual([])
  })
})

describe('docs/control-api.md: events without a receiver', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED })
  })
  afterAll(() => sb.close())

  it('answers the failure the page waits for, with the payment as it failed', async () => {
    const [example] = shellBlocks(page('control-api.md')).filter((block) => block.includes('/_sandbox/events'))
    const treasury = await institutionalWallet(sb, 'polygon', 'USDC')
    const payment = (await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '1.00', currency: 'USDC', source_wallet: treasury.id, recipient: '0x52908400098527886E0F7030069857D2E4169EE7' }).expect(201)).body.data
    // The page waits first; the failure comes while it waits.
    const output = runShell(example!.replace('pay_…', payment.id), sb.url, ROOT)
    await sb.api.post(`/_sandbox/payments/${payment.id}/fail`).send({}).expect(200)
    expect(shownAnswers(example!)).toHaveLength(1)
    expect(missingAnswers(await output, shownAnswers(example!))).toEqual([])
  })
})

describe('docs/control-api.md: the request journal and expectations', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED })
  })
  afterAll(() => sb.close())

  it('answers what the page shows: the filtered journal, a near miss, an exact count, an absence, and a wait', async () => {
    const blocks = shellBlocks(page('control-api.md'))
    const journal = blocks.find((block) => block.includes('/_sandbox/requests?api_key='))!
    const expectations = blocks.find((block) => block.includes('Was the amount sent as'))!
    const waiting = blocks.find((block) => block.includes('"within_ms": 10000'))!
    expect(shownAnswers(journal)).toHaveLength(1)
    expect(missingAnswers(await runShell(journal, sb.url, ROOT), shownAnswers(journal))).toEqual([])
    expect(shownAnswers(expectations)).toHaveLength(3)
    expect(missingAnswers(await runShell(expectations, sb.url, ROOT), shownAnswers(expectations))).toEqual([])
    const output = runShell(waiting, sb.url, ROOT)
    await sb.api.get('/v1/payouts').set(sb.auth()).expect(200)
    expect(missingAnswers(await output, shownAnswers(waiting))).toEqual([])
  })
})

describe('docs/rest-api.md: a body nested too deep', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await startTestSandbox()
  })
  afterAll(() => sb.close())

  it('gets the error the page shows', async () => {
    const shown = /^HTTP\/1\.1 400 Bad Request\n(\{[\s\S]*?\})\n```/m.exec(page('rest-api.md'))![1]!
    const expected = JSON.parse(shown.replace('"req_…"', '"req_"')) as { error: object }
    const res = await sb.api.post('/v1/wallets').set(sb.auth(DEFAULT_KEY)).set('Content-Type', 'application/json').send('['.repeat(65) + ']'.repeat(65)).expect(400)
    expect(res.body.error).toEqual(expected.error)
  })
})

describe('docs/snapshots.md: a data file holding null', () => {
  it('stops start-up with the message the page shows', async () => {
    const text = page('snapshots.md')
    const shown = /^ *\$ echo null > ledger\.json && wallet-sandbox --data-file ledger\.json\n *(.+)$/m.exec(text)![1]!
    const dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-docs-'))
    try {
      const file = join(dir, 'ledger.json')
      writeFileSync(file, 'null\n')
      const error = await openStore({ dataFile: file }).then(() => undefined, (thrown: Error) => thrown)
      expect(error?.message.replace(file, 'ledger.json')).toBe(shown)
      expect(readFileSync(file, 'utf8')).toBe('null\n')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('docs/snapshots.md: reading the payments out of a snapshot', () => {
  it('prints every payment whole, with jq, as the page shows', async () => {
    const [example] = shellBlocks(page('snapshots.md')).filter((block) => block.includes('jq -c'))
    const dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-docs-'))
    try {
      const { store } = await openStore({ dataFile: join(dir, 'ledger.json') })
      store.apply([tenant(), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 1_000n))])
      const payments = [payment(1, 'wal_a'), { ...payment(2, 'wal_a'), status: 'completed' as const, tx_hash: '0xabc', completed_at: '2026-01-02T00:00:00.000Z', updated_at: '2026-01-02T00:00:00.000Z' }, payment(3, 'wal_a', 7n)]
      for (const each of payments) store.apply([put('payment', ACCOUNT, each.id, each)])
      await store.compact()
      await store.close()
      const output = await runShell(example!, 'http://127.0.0.1:1', dir)
      const printed = output.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>)
      expect(printed.map((p) => p.id)).toEqual(payments.map((p) => p.id))
      printed.forEach((shown, i) => expect(encodePayment(payments[i]!)).toMatchObject(shown))
      expect(printed[1]).toMatchObject({ status: 'completed', tx_hash: '0xabc' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('docs/openapi.md', () => {
  let sb: TestSandbox
  let workDir: string
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED })
    // Inside the project, so that tsc and node resolve openapi-fetch from its node_modules.
    mkdirSync(join(ROOT, 'node_modules/.cache'), { recursive: true })
    workDir = mkdtempSync(join(ROOT, 'node_modules/.cache/docs-openapi-'))
  })
  afterAll(async () => {
    rmSync(workDir, { recursive: true, force: true })
    await sb.close()
  })

  it('lists exactly the example ids of the document’s path parameters', async () => {
    const document = (await sb.api.get('/v1/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { parameters?: Array<{ in: string; example?: string }> }>> }
    const examples = new Set(
      Object.values(document.paths).flatMap((operations) =>
        Object.values(operations).flatMap((operation) => (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.example)),
      ),
    )
    const table = page('openapi.md').split('## Example ids')[1]!.split('\n## ')[0]!
    // Ids, and the pairs and legs of the price-pin routes.
    const shown = [...table.matchAll(/^\| [^|]+ \| `([a-z]+_[A-Za-z0-9]+|[A-Z]{3,5}(?:\/USD)?)` \|/gm)].map(([, id]) => id)
    expect(new Set(shown)).toEqual(examples)
  })

  it('runs the typed client as printed: generated types, a wallet, a page of wallets, a payment', async () => {
    const text = page('openapi.md')
    const generate = shellBlocks(text).find((block) => block.includes('openapi-typescript'))!
    // The page's npx runs the project's own openapi-typescript here, without a lookup in the registry.
    await runShell(generate.replace('npx openapi-typescript', join(ROOT, 'node_modules/.bin/openapi-typescript')), sb.url, workDir)
    const code = /^```ts\n([\s\S]*?)^```$/m.exec(text)![1]!.replace("'http://127.0.0.1:4400'", JSON.stringify(sb.url))
    const probe = '\nconsole.log(JSON.stringify({ created: created?.data, page: page?.data, paid: paid?.data }))\n'
    writeFileSync(join(workDir, 'example.ts'), code + probe)
    writeFileSync(join(workDir, 'package.json'), JSON.stringify({ type: 'module' }))
    writeFileSync(join(workDir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { target: 'ES2023', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023', 'DOM'], strict: true, noEmit: true, skipLibCheck: true },
      files: ['example.ts'],
    }))
    const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(workDir, 'tsconfig.json')], { cwd: workDir }).catch((error: { stdout: string }) => error)
    expect(tsc.stdout).toBe('')

    const js = ts.transpileModule(code + probe, { compilerOptions: { target: ts.ScriptTarget.ES2023, module: ts.ModuleKind.ESNext } }).outputText
    writeFileSync(join(workDir, 'example.mjs'), js)
    const { stdout } = await run(process.execPath, [join(workDir, 'example.mjs')], { cwd: workDir })
    const { created, page: listed, paid } = JSON.parse(stdout)
    expect(created).toMatchObject({ object: 'wallet', name: 'Alice', type: 'user', currency: 'USDC', network: 'polygon' })
    expect(listed.every((wallet: { network: string }) => wallet.network === 'polygon')).toBe(true)
    expect(listed).toHaveLength(5)
    expect(paid).toMatchObject({ object: 'payment', status: 'pending', amount: '12.50', source: 'wal_RJ404a9s9n2lY76hzhRKhSUF', destination: created.id })
  }, 60_000)
})

describe('docs/signing.md', () => {
  const text = page('signing.md')
  /** The worked example's `created`: the sandbox's real time is set to it, so the printed signature is fresh. */
  const CREATED = 1767225600
  let sb: TestSandbox | undefined
  afterEach(async () => {
    await sb?.close()
    sb = undefined
  })

  /** Sends a request to the sandbox with exactly these headers (`Host` as printed, 127.0.0.1:4400). */
  function sendRaw(headers: Record<string, string>, body: string): Promise<{ status: number; body: any }> {
    return new Promise((resolve, reject) => {
      const port = Number(new URL(sb!.url).port)
      const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/wallets', headers }, (res) => {
        let text = ''
        res.on('data', (chunk) => (text += chunk))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }))
      })
      req.on('error', reject)
      req.end(body)
    })
  }

  it('creates the key the page shows; its worked request is accepted and its base is the one the sandbox computes', async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED }, { realTime: () => CREATED * 1000 })
    const [createKey] = shellBlocks(text)
    const output = await runShell(createKey!, sb.url, ROOT)
    expect(shownAnswers(createKey!)).toHaveLength(1)
    expect(missingAnswers(output, shownAnswers(createKey!))).toEqual([])

    const body = /byte for byte:\n\n```\n(.*)\n```/.exec(text)![1]!
    const base = /^```text\n([\s\S]*?)\n```$/m.exec(text)![1]!
    const lines = /^```\nPOST \/v1\/wallets HTTP\/1\.1\n([\s\S]*?)\n```$/m.exec(text)![1]!.split('\n')
    const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]))
    expect(headers.Host).toBe('127.0.0.1:4400')

    const refused = await sendRaw({ ...headers, Signature: 'sig1=:AAAA:' }, body)
    expect(refused.body.error.code).toBe('signature_invalid')
    expect(refused.body.error.signature_base).toBe(base)
    const accepted = await sendRaw(headers, body)
    expect(accepted.status).toBe(201)
    expect(accepted.body.data).toMatchObject({ object: 'wallet', name: 'Signed wallet', currency: 'USDC', network: 'polygon' })
  })

  it('runs the Node example as printed: it signs a request the sandbox accepts', async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED })
    const created = (await sb.api.post('/_sandbox/keys').send({ signing: 'hmac-sha256' }).expect(201)).body.data
    const code = /^```js\n([\s\S]*?)^```$/m.exec(text)![1]!
    const dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-signing-'))
    try {
      writeFileSync(join(dir, 'sign-request.mjs'), code)
      const env = { ...process.env, SANDBOX_URL: sb.url, API_KEY: created.key, KEY_ID: created.signing.key_id, SIGNING_SECRET: created.signing.secret }
      const { stdout } = await run(process.execPath, [join(dir, 'sign-request.mjs')], { env })
      expect(stdout).toMatch(/^201 \{"data":\{"id":"wal_/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('docs/trading.md: pairs, quotes and price pins', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED })
  })
  afterAll(() => sb.close())

  it('answers every example as the page shows, in order', async () => {
    const blocks = shellBlocks(page('trading.md'))
    expect(blocks.length).toBeGreaterThanOrEqual(3)
    for (const block of blocks) {
      const output = await runShell(block, sb.url, ROOT)
      expect(shownAnswers(block).length).toBeGreaterThan(0)
      expect(missingAnswers(output, shownAnswers(block)), block).toEqual([])
    }
  })
})

describe('docs/settlements.md: one settlement per destination type', () => {
  let sb: TestSandbox
  beforeAll(async () => {
    sb = await startTestSandbox({ seed: DEFAULT_SEED })
  })
  afterAll(() => sb.close())

  it('answers every example as the page shows, in order', async () => {
    const blocks = shellBlocks(page('settlements.md'))
    expect(blocks.length).toBeGreaterThanOrEqual(6)
    for (const [index, block] of blocks.entries()) {
      const output = await runShell(block, sb.url, ROOT)
      // The first block only pins prices.
      if (index > 0) expect(shownAnswers(block).length).toBeGreaterThan(0)
      expect(missingAnswers(output, shownAnswers(block)), block).toEqual([])
    }
  })
})

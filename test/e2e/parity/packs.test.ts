import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Report } from '../../../src/parity/report.js'
import type { RunningSandbox } from '../../../src/public.js'
import { buildIfNeeded, killAll } from '../../helpers/cli-process.js'
import { accountOn, cli, dataOf, FAST, LOCAL_SETTINGS, linesStarting, startHosted, startProxy, type Plant, type TestProxy } from './parity-helpers.js'

/**
 * `wallet-sandbox parity` run as a user runs it (CONTRACT.md section 22), the hosted side a second
 * sandbox of another seed: the packs find no difference at all; behind a proxy that plants known
 * differences, the report names exactly those, each with its class and key; the baseline accepts
 * them, fails on one more, and says `fixed:` when one goes away.
 */

let hosted: RunningSandbox
let account: { key: string; source: string }
const dir = mkdtempSync(join(tmpdir(), 'parity-packs-'))

beforeAll(async () => {
  buildIfNeeded()
  hosted = await startHosted()
  account = await accountOn(hosted)
}, 180_000)
afterAll(async () => {
  killAll()
  await hosted?.close()
})

const parity = (against: string, ...args: string[]) => cli(['parity', ...LOCAL_SETTINGS, ...FAST, '--against', against, '--api-key', account.key, '--source-wallet', account.source, ...args])

describe.each(['core', 'all'])('the %s pack against a sandbox of another seed', (pack) => {
  it('reports no difference at all, every step sent', async () => {
    const { code, stdout, stderr } = await parity(hosted.url, '--pack', pack, '--json')
    expect(code, stderr).toBe(0)
    const report = JSON.parse(stdout) as Report
    expect(report.summary).toMatchObject({ different: 0, skipped: 0, retries_429: 0 })
    expect(report.summary.steps).toBeGreaterThan(pack === 'all' ? 100 : 40)
    expect(report.steps.flatMap((step) => step.differences)).toEqual([])
    expect({ new: report.new, accepted: report.accepted, fixed: report.fixed }).toEqual({ new: [], accepted: [], fixed: [] })
  }, 120_000)
})

describe('differences planted by a proxy in front of the hosted sandbox', () => {
  let proxy: TestProxy
  beforeAll(async () => {
    proxy = await startProxy(hosted.baseUrl)
  })
  afterAll(() => proxy?.close())

  const rename: Plant = {
    operation: 'GET /v1/wallets/{id}',
    edit: (answer) => {
      const data = dataOf(answer)
      if (data?.name === undefined) return
      data.label = data.name
      delete data.name
    },
  }
  const PLANTS: Array<[Plant, string[]]> = [
    [rename, ['GET /v1/wallets/{id} $.data.label missing', 'GET /v1/wallets/{id} $.data.name extra']],
    [{ operation: 'DELETE /v1/wallets/{id}', edit: (answer) => void (answer.status = 202) }, ['DELETE /v1/wallets/{id} status status']],
    [{ operation: 'GET /v1/parity-unknown-path', edit: (answer) => void ((answer.body as { error: { code: string } }).error.code = 'not_found') }, ['GET /v1/parity-unknown-path $.error.code value']],
    [
      { operation: 'PUT /v1/wallets/{id}', edit: (answer) => void (dataOf(answer)!.updated_at = String(dataOf(answer)!.updated_at).replace('Z', '')) },
      ['PUT /v1/wallets/{id} $.data.updated_at format'],
    ],
    // A field only the hosted answer has is one the sandbox is missing.
    [{ operation: 'GET /v1/payments/{id}', edit: (answer) => void Object.assign(dataOf(answer) ?? {}, { network_fee: '0.00' }) }, ['GET /v1/payments/{id} $.data.network_fee missing']],
    [
      {
        operation: 'POST /v1/payments',
        edit: (answer) => {
          const data = dataOf(answer)
          if (typeof data?.amount === 'string') data.amount = Number(data.amount)
        },
      },
      ['POST /v1/payments $.data.amount kind'],
    ],
    [{ operation: 'GET /v1/wallets/{id}/balance', edit: (answer) => void answer.headers.delete('x-request-id') }, ['GET /v1/wallets/{id}/balance headers.x-request-id header']],
  ]
  const planted = PLANTS.flatMap(([, keys]) => keys).sort()
  const acceptFile = join(dir, 'accepted.json')

  it('names each planted difference once, with its class and key, and nothing else; --write-accept accepts them, one key a line, sorted', async () => {
    proxy.plants.push(...PLANTS.map(([plant]) => plant))
    const report = join(dir, 'planted.json')
    const { code, stdout, stderr } = await parity(proxy.url, '--report', report, '--write-accept', acceptFile)
    // The run that writes the baseline passes.
    expect(code, stderr).toBe(0)
    for (const key of planted) expect(stdout.split('\n').filter((line) => line === `  accepted ${key}`), key).toHaveLength(1)
    const written = JSON.parse(readFileSync(report, 'utf8')) as Report
    expect({ new: written.new, accepted: written.accepted }).toEqual({ new: [], accepted: planted })
    const differences = written.steps.flatMap((step) => step.differences)
    expect([...new Set(differences.map((d) => d.key))].sort()).toEqual(planted)
    for (const d of differences) expect(d.key.endsWith(` ${d.class}`)).toBe(true)
    expect(differences.find((d) => d.class === 'format')).toMatchObject({ path: '$.data.updated_at', local: '<timestamp>', hosted: expect.stringMatching(/^\d{4}-.*\d$/) })
    expect(differences.find((d) => d.class === 'kind')).toMatchObject({ path: '$.data.amount', local: '0.01', hosted: 0.01 })
    expect(readFileSync(acceptFile, 'utf8')).toBe(`${JSON.stringify(planted, null, 2)}\n`)
  }, 120_000)

  it('fails on one more, naming only it (exit code 1)', async () => {
    proxy.plants.push({
      operation: 'GET /v1/wallets',
      edit: (answer) => {
        const error = (answer.body as { error?: { param?: string } }).error
        if (error?.param !== undefined) error.param = 'page_size'
      },
    })
    const { code, stdout } = await parity(proxy.url, '--accept', acceptFile)
    expect(code).toBe(1)
    expect(linesStarting(stdout, 'new: ')).toEqual(['GET /v1/wallets $.error.param value'])
    expect(linesStarting(stdout, 'fixed: ')).toEqual([])
  }, 120_000)

  it('says fixed: for an accepted difference that went away, and passes', async () => {
    proxy.plants.splice(0, proxy.plants.length, ...PLANTS.slice(1).map(([plant]) => plant))
    const { code, stdout } = await parity(proxy.url, '--accept', acceptFile)
    expect(code).toBe(0)
    expect(linesStarting(stdout, 'fixed: ')).toEqual(['GET /v1/wallets/{id} $.data.label missing', 'GET /v1/wallets/{id} $.data.name extra'])
    expect(linesStarting(stdout, 'new: ')).toEqual([])
  }, 120_000)
})

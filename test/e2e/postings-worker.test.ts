import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Change } from '../../src/store/changes.js'
import type { openStore as OpenStore } from '../../src/store/store.js'
import { ACCOUNT, tenant } from '../helpers/store-records.js'

/**
 * A large snapshot's postings are read on a worker thread (src/store/postings-worker.ts), which runs
 * only compiled: these tests use dist/, as the CLI does. The thread must load what the main thread
 * loads, and name a damaged line exactly as it would.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const WORKER = join(ROOT, 'dist/store/postings-worker.js')
let dir: string
let openStore: typeof OpenStore

/** Enough deposits that the postings region is past the size a thread is started for (4 MB). */
const DEPOSITS = 70_000

function deposits(): Change[] {
  return Array.from({ length: DEPOSITS }, (_, at) => ({
    op: 'append',
    log: 'postings',
    account: ACCOUNT,
    at,
    value: { cause: 'deposit', ref: `0xsender${at}`, at: new Date(Date.UTC(2026, 0, 1) + at * 1000).toISOString(), lines: [{ account: 'external:polygon:USDC', amount: String(-(at + 1)) }, { account: 'wal_a:available', amount: String(at + 1) }] },
  }))
}

beforeAll(async () => {
  execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'inherit' })
  openStore = ((await import(join(ROOT, 'dist/store/store.js'))) as { openStore: typeof OpenStore }).openStore
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-postings-worker-'))
  const { store } = await openStore({ dataFile: join(dir, 'ledger.json') })
  store.apply([tenant(), ...deposits()])
  await store.compact()
  await store.close()
}, 180_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

async function transactionsOf(file: string, postingsWorker: string | undefined) {
  const { store } = await openStore({ dataFile: file, postingsWorker })
  try {
    return [...store.accounts.get(ACCOUNT)!.postings]
  } finally {
    await store.close()
  }
}

describe('the postings of a large snapshot, read on another thread', () => {
  it('loads the same transactions as the main thread does', async () => {
    const file = join(dir, 'ledger.json')
    const trailer = JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1)!)
    expect(readFileSync(file).length - trailer.postings).toBeGreaterThan(4 * 1024 * 1024)
    const onThread = await transactionsOf(file, WORKER)
    expect(onThread).toHaveLength(DEPOSITS)
    expect(onThread).toEqual(await transactionsOf(file, undefined))
    expect(onThread[DEPOSITS - 1]).toMatchObject({ ref: `0xsender${DEPOSITS - 1}`, lines: [{ amount: -BigInt(DEPOSITS) }, { account: 'wal_a:available', amount: BigInt(DEPOSITS) }] })
  })

  it('names a damaged transaction by its line in the file and its byte offset', async () => {
    const lines = readFileSync(join(dir, 'ledger.json'), 'utf8').split('\n')
    const index = lines.findIndex((line) => line.includes('"0xsender60000"'))
    lines[index] = lines[index]!.replace('"deposit"', '"gift"')
    const damaged = join(dir, 'damaged.json')
    writeFileSync(damaged, lines.join('\n'))
    const offset = Buffer.byteLength(lines.slice(0, index).map((line) => `${line}\n`).join(''))
    const expected = `Data file ${damaged} is damaged at line ${index + 1} (byte offset ${offset}): cause[0]: expected one of "opening_balance"|`
    await expect(openStore({ dataFile: damaged, postingsWorker: WORKER })).rejects.toThrow(expected)
    await expect(openStore({ dataFile: damaged })).rejects.toThrow(expected)
  })
})

import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { put, remove, type Change } from '../../src/store/changes.js'
import { BATCH_MS, type FlushTimer } from '../../src/store/journal-writer.js'
import { createState } from '../../src/store/state.js'
import { createMemoryStore, openStore, StoreLoadError, type Store, type StoreOptions } from '../../src/store/store.js'
import { encodePayment, encodeWallet } from '../../src/store/data.js'
import { ACCOUNT, payment, paymentChanges, tenant, wallet } from '../helpers/store-records.js'

const LATER = '2026-01-02T00:00:00.000Z'

let dir: string
let file: string
const open: Store[] = []
const warnings: string[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wallet-sandbox-store-'))
  file = join(dir, 'ledger.json')
  warnings.length = 0
})
afterEach(async () => {
  for (const store of open.splice(0)) await store.close()
  rmSync(dir, { recursive: true, force: true })
})

async function openFile(options: Partial<StoreOptions> = {}) {
  const result = await openStore({ dataFile: file, warn: (message) => warnings.push(message), ...options })
  open.push(result.store)
  return result
}

async function closeAll() {
  for (const store of open.splice(0)) await store.close()
}

/** A store with one account, one wallet and `n` payments from it. */
async function seeded(n: number, options: Partial<StoreOptions> = {}) {
  const { store } = await openFile(options)
  store.apply([tenant(), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 1_000_000n))])
  for (let i = 1; i <= n; i++) store.apply(paymentChanges(store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, i))
  return store
}

/** A deposit of `units` into wal_a, as the ledger's change set appends it at position `at`. */
const postingChange = (at: number, units: bigint): Change => ({
  op: 'append',
  log: 'postings',
  account: ACCOUNT,
  at,
  value: { cause: 'deposit', ref: 'sender', at: '2026-01-01T00:00:00.000Z', lines: [{ account: 'external:polygon:USDC', amount: String(-units) }, { account: 'wal_a:available', amount: String(units) }] },
})

const snapshotOf = (store: Store) => JSON.stringify(store.toData())
const AT = '2026-01-01T00:00:00.000Z'

/**
 * A snapshot's lines, edited, with the trailer made to fit them again (`added` lines more or fewer;
 * the postings region starting where it now starts), so that a test damages only what it means to.
 */
function withTrailer(lines: string[], added = 0): string {
  const end = lines.findIndex((line) => line.startsWith('{"end"'))
  const region = lines.findIndex((line) => line.startsWith('{"section":"postings"'))
  const postings = Buffer.byteLength(lines.slice(0, region === -1 ? end : region).map((line) => `${line}\n`).join(''))
  lines[end] = lines[end]!.replace(/"records":(\d+)/, (_, n) => `"records":${Number(n) + added}`).replace(/"postings":\d+/, `"postings":${postings}`)
  return lines.join('\n')
}
const filesIn = () => readdirSync(dir).sort()
const bytesOf = (names: string[]) => names.map((name) => readFileSync(join(dir, name)))

describe('change sets', () => {
  it('apply all of a change set or, when one change does not fit, none of it', () => {
    const store = createMemoryStore()
    store.apply([tenant(), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 10n))])
    const before = snapshotOf(store)
    expect(() => store.apply([put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 0n)), put('wallet', 'acct_missing', 'wal_b', wallet('wal_b', 5n))])).toThrow(/no account 'acct_missing'/)
    expect(snapshotOf(store)).toBe(before)
    expect(() => store.apply([{ op: 'append', log: 'postings', account: ACCOUNT, at: 1, value: {} }])).toThrow(/cannot append at 1/)
    expect(snapshotOf(store)).toBe(before)
  })

  it('count the appends of one change set per log: each at the length the earlier ones leave, any other refused with nothing applied; a replayed one already there is skipped', () => {
    const state = createState()
    state.apply([tenant()])
    const note = (log: string, at: number, n: number): Change => ({ op: 'append', log, account: ACCOUNT, at, value: { n } })
    state.apply([note('a', 0, 1), note('b', 0, 2), note('a', 1, 3), note('b', 1, 4), { op: 'append', log: 'a', at: 0, value: { n: 5 } }])
    const logs = () => JSON.stringify([...state.logs])
    expect(logs()).toBe(JSON.stringify([[`${ACCOUNT}/a`, [{ n: 1 }, { n: 3 }]], [`${ACCOUNT}/b`, [{ n: 2 }, { n: 4 }]], ['/a', [{ n: 5 }]]]))
    const before = logs()
    expect(() => state.apply([note('a', 2, 6), note('b', 2, 7), note('a', 2, 8)])).toThrow(`log '${ACCOUNT}/a' has 3 entries; cannot append at 2`)
    expect(() => state.apply([note('b', 2, 6), note('a', 3, 7)])).toThrow(`log '${ACCOUNT}/a' has 2 entries; cannot append at 3`)
    expect(logs()).toBe(before)
    state.apply([note('a', 1, 9), note('a', 2, 10), note('b', 1, 11)], true)
    expect(logs()).toBe(JSON.stringify([[`${ACCOUNT}/a`, [{ n: 1 }, { n: 3 }, { n: 10 }]], [`${ACCOUNT}/b`, [{ n: 2 }, { n: 4 }]], ['/a', [{ n: 5 }]]]))
  })

  it('update an existing record in place, so references to it see the change', () => {
    const store = createMemoryStore()
    store.apply([tenant(), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 10n))])
    const held = store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!
    store.apply([put('wallet', ACCOUNT, 'wal_a', { ...held, available: 3n })])
    expect(held.available).toBe(3n)
  })

  it('append entries to a log, which snapshots and the data file keep', async () => {
    const store = await seeded(0)
    store.apply([{ op: 'append', log: 'notes', account: ACCOUNT, at: 0, value: { amount: '1' } }, { op: 'append', log: 'notes', account: ACCOUNT, at: 1, value: { amount: '-1' } }])
    expect(store.toData().logs).toEqual({ [`${ACCOUNT}/notes`]: [{ amount: '1' }, { amount: '-1' }] })
    const before = snapshotOf(store)
    await closeAll()
    expect(snapshotOf((await openFile()).store)).toBe(before)
  })

  it('append transactions to the account’s postings log, which the journal and the snapshot keep', async () => {
    const store = await seeded(0)
    store.apply([postingChange(0, 7n), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 7n))])
    await closeAll()
    const reopened = (await openFile()).store
    const postings = reopened.accounts.get(ACCOUNT)!.postings
    expect(postings.size).toBe(1)
    expect(postings.transaction(1)).toMatchObject({ cause: 'deposit', ref: 'sender', lines: [{ account: 'external:polygon:USDC', amount: -7n }, { account: 'wal_a:available', amount: 7n }] })
    // From the snapshot now: a compaction writes the log out, the restart reads it back.
    reopened.apply([postingChange(1, 3n), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 10n))])
    await reopened.compact()
    await closeAll()
    const compacted = (await openFile()).store.accounts.get(ACCOUNT)!
    expect(compacted.postings.size).toBe(2)
    expect(compacted.postings.transaction(2).lines[1]).toEqual({ account: 'wal_a:available', amount: 3n })
    expect(compacted.wallets.get('wal_a')!.available).toBe(10n)
  })

  it('a compaction copies the transactions the snapshot on disk holds, and writes those since', async () => {
    const store = await seeded(0)
    store.apply([postingChange(0, 7n), postingChange(1, 3n)])
    await store.compact()
    await closeAll()
    // The snapshot's transactions, spaced out by hand: still JSON, and a copy keeps them as they are.
    const lines = readFileSync(file, 'utf8').split('\n')
    const region = lines.findIndex((line) => line.startsWith('{"section":"postings"'))
    lines[region + 1] = lines[region + 1]!.replace('{"count":', '{ "count":')
    writeFileSync(file, lines.join('\n'))
    const reopened = (await openFile()).store
    reopened.apply([postingChange(2, 5n)])
    await reopened.compact()
    const transactions = readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('"cause":'))
    expect(transactions).toEqual([expect.stringMatching(/^\{ "count":2,/), expect.stringMatching(/^\{"count":1,/)])
    expect(readFileSync(file, 'utf8')).toContain('{"section":"postings","account":"acct_store_test","count":3}')
    // An account built anew (a reset) has a new log: written whole.
    reopened.apply([tenant()])
    reopened.apply([postingChange(0, 1n)])
    await reopened.compact()
    expect(readFileSync(file, 'utf8').split('\n').filter((line) => line.includes('"cause":'))).toEqual([expect.stringMatching(/^\{"count":1,/)])
    const state = snapshotOf(reopened)
    await closeAll()
    expect(snapshotOf((await openFile()).store)).toBe(state)
  })

  it('a compaction copies the payment chunks that no put changed since the snapshot on disk began, and writes the others anew', async () => {
    const store = await seeded(2500)
    await store.compact()
    await closeAll()
    // Each chunk line spaced out by hand: still JSON, and a copy keeps it as it is.
    const lines = readFileSync(file, 'utf8').split('\n').map((line) => line.replace(/^\{"count":(1000|500),"id"/, '{ "count":$1,"id"'))
    writeFileSync(file, withTrailer(lines))
    const chunkLines = () => readFileSync(file, 'utf8').split('\n').filter((line) => /^\{ ?"count":\d+,"id"/.test(line))
    const reopened = (await openFile()).store
    const paymentAt = (seq: number) => reopened.accounts.get(ACCOUNT)!.payments.get(`pay_${String(seq).padStart(24, '0')}`)!
    // The second chunk's 1500th payment completes; 600 more fill the third chunk and start a fourth.
    reopened.apply([put('payment', ACCOUNT, paymentAt(1500).id, { ...paymentAt(1500), status: 'completed', updated_at: 'later' })])
    for (let i = 2501; i <= 3100; i++) reopened.apply(paymentChanges(reopened.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, i))
    await reopened.compact()
    expect(chunkLines().map((line) => line.slice(0, 16))).toEqual(['{ "count":1000,"', '{"count":1000,"i', '{"count":1000,"i', '{"count":100,"id'])
    // A put that changes nothing the line holds still has its chunk written anew; the others, the new snapshot's own, are copied.
    const copied = chunkLines()
    reopened.apply([put('payment', ACCOUNT, paymentAt(10).id, { ...paymentAt(10) })])
    await reopened.compact()
    expect(chunkLines()).toEqual([copied[0]!.replace('{ "count"', '{"count"'), ...copied.slice(1)])
    expect(readFileSync(file, 'utf8')).toContain('{"section":"payments","account":"acct_store_test","count":3100}')
    const state = snapshotOf(reopened)
    await closeAll()
    expect(snapshotOf((await openFile()).store)).toBe(state)
    // An account built anew (a reset) has a new index: written whole.
    const reset = open[0]!
    reset.apply([tenant(), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 10n)), ...paymentChanges(wallet('wal_a', 10n), 1)])
    await reset.compact()
    expect(chunkLines()).toEqual([expect.stringMatching(/^\{"count":1,"id"/)])
  })

  it('a compaction writes anew the chunk of a payment whose put a restart replayed from the journal', async () => {
    const store = await seeded(2000)
    await store.compact()
    const tenth = store.accounts.get(ACCOUNT)!.payments.get(payment(10, 'wal_a').id)!
    store.apply([put('payment', ACCOUNT, tenth.id, { ...tenth, status: 'completed', updated_at: LATER })])
    await closeAll()
    const reopened = (await openFile()).store
    await reopened.compact()
    await closeAll()
    expect((await openFile()).store.accounts.get(ACCOUNT)!.payments.get(tenth.id)).toMatchObject({ status: 'completed', updated_at: LATER })
  })

  it('refuse a journaled posting that is not a transaction, naming where it is', async () => {
    const store = await seeded(0)
    await store.flush()
    await closeAll()
    const journal = filesIn().find((name) => name.includes('journal'))!
    appendFileSync(join(dir, journal), `${JSON.stringify({ seq: 99, changes: [{ append: 'postings', account: ACCOUNT, at: 0, value: { cause: 'deposit' } }] })}\n{}\n`)
    await expect(openFile()).rejects.toThrow(StoreLoadError)
  })
})

describe('the data file', () => {
  it('keeps every change across a restart, journaled as the change set (never the whole state)', async () => {
    const store = await seeded(3)
    store.apply([put('whitelist', ACCOUNT, 'wla_1', { id: 'wla_1', address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'polygon', label: null, created_at: 'x' })])
    store.apply([remove('whitelist', ACCOUNT, 'wla_1')])
    const before = snapshotOf(store)
    await closeAll()
    const journal = readFileSync(`${file}.journal.1`, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
    expect(journal).toHaveLength(6)
    // The wallet exists: its put is journaled as the fields it changes (journal-patches.ts).
    expect(journal[1].changes.map((c: { put?: string; patch?: string }) => c.put ?? `patch ${c.patch}`)).toEqual(['patch wallet', 'payment'])
    expect(journal[1].changes[0].value).toEqual({ available: '999999', locked: '1' })
    expect(journal[5].changes).toEqual([{ delete: 'whitelist', account: ACCOUNT, id: 'wla_1' }])
    const again = await openFile()
    expect(again.loaded).toBe(true)
    expect(snapshotOf(again.store)).toBe(before)
  })

  it('starts empty only from a missing or zero-byte file', async () => {
    writeFileSync(file, '')
    const { loaded, store } = await openFile()
    expect(loaded).toBe(false)
    expect(store.accounts.size).toBe(0)
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ format: 'wallet-sandbox/snapshot', version: 3, journal: 1 })
  })

  it.each([['null'], ['[]'], ['42'], ['"x"']])('refuses a file holding valid JSON of the wrong kind (%s), leaving it untouched', async (content) => {
    writeFileSync(file, content)
    await expect(openFile()).rejects.toThrow(StoreLoadError)
    await expect(openFile()).rejects.toThrow(/holds (null|an array|a number|a string) where a ledger object/)
    expect(readFileSync(file, 'utf8')).toBe(content)
    expect(filesIn()).toEqual(['ledger.json'])
  })

  it('drops a torn last journal line with a warning, and goes on from the line before', async () => {
    const store = await seeded(2)
    const before = snapshotOf(store)
    await closeAll()
    appendFileSync(`${file}.journal.1`, '{"seq":4,"changes":[{"put":"pay')
    const again = await openFile()
    expect(snapshotOf(again.store)).toBe(before)
    expect(warnings.join('\n')).toMatch(new RegExp(`${file}\\.journal\\.1: dropped a torn last line \\(line 4, byte offset \\d+`))
    // The next change starts on a line of its own.
    again.store.apply(paymentChanges(again.store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, 3))
    const after = snapshotOf(again.store)
    await closeAll()
    expect(snapshotOf((await openFile()).store)).toBe(after)
  })

  it('refuses damage in the middle of the journal, naming the file, the line and the byte offset, and changes no file', async () => {
    await seeded(3)
    await closeAll()
    const journal = `${file}.journal.1`
    const lines = readFileSync(journal, 'utf8').split('\n')
    lines[1] = lines[1]!.replace('"put":"payment"', '"put":"paymnet"')
    writeFileSync(journal, lines.join('\n'))
    const names = filesIn()
    const bytes = bytesOf(names)
    const offset = Buffer.byteLength(`${lines[0]}\n`)
    await expect(openFile()).rejects.toThrow(`Data file ${journal} is damaged at line 2 (byte offset ${offset})`)
    expect(filesIn()).toEqual(names)
    expect(bytesOf(names)).toEqual(bytes)
  })

  it('refuses a damaged snapshot line, naming the file and the line', async () => {
    const store = await seeded(2)
    await store.compact()
    await closeAll()
    const lines = readFileSync(file, 'utf8').split('\n')
    const index = lines.findIndex((line) => line.startsWith('{"put":"wallet"'))
    lines[index] = lines[index]!.slice(0, 20)
    writeFileSync(file, withTrailer(lines))
    await expect(openFile()).rejects.toThrow(new RegExp(`Data file ${file} is damaged at line ${index + 1} \\(byte offset \\d+\\): not valid JSON`))
  })

  it('refuses a snapshot payment that does not fit its schema, naming the field', async () => {
    const store = await seeded(2)
    await store.compact()
    await closeAll()
    const lines = readFileSync(file, 'utf8').split('\n')
    const index = lines.findIndex((line) => line.startsWith('{"section":"payments"')) + 1
    lines[index] = lines[index]!.replace('"pending"', '"paid"')
    writeFileSync(file, withTrailer(lines))
    await expect(openFile()).rejects.toThrow(new RegExp(`Data file ${file} is damaged at line ${index + 1} \\(byte offset \\d+\\): status\\[0\\]: Invalid option`))
  })

  it('refuses a damaged transaction in the postings region, naming the line', async () => {
    const store = await seeded(2)
    store.apply([postingChange(0, 7n), postingChange(1, 3n)])
    await store.compact()
    await closeAll()
    const lines = readFileSync(file, 'utf8').split('\n')
    const index = lines.findIndex((line) => line.includes('"cause":'))
    lines[index] = lines[index]!.replace('"deposit"', '"gift"')
    writeFileSync(file, withTrailer(lines))
    await expect(openFile()).rejects.toThrow(new RegExp(`Data file ${file} is damaged at line ${index + 1} \\(byte offset \\d+\\): cause\\[0\\]: expected one of`))
  })

  it('refuses a snapshot that holds one payment twice, naming the line', async () => {
    const store = await seeded(2)
    await store.compact()
    await closeAll()
    const lines = readFileSync(file, 'utf8').split('\n')
    const index = lines.findIndex((line) => line.startsWith('{"section":"payments"')) + 1
    const chunk = JSON.parse(lines[index]!)
    chunk.id[1] = chunk.id[0]
    lines[index] = JSON.stringify(chunk)
    writeFileSync(file, withTrailer(lines))
    const before = readFileSync(file)
    await expect(openFile()).rejects.toThrow(new RegExp(`Data file ${file} is damaged at line ${index + 1} \\(byte offset \\d+\\): payment '${chunk.id[0]}' is in the snapshot twice`))
    expect(readFileSync(file)).toEqual(before)
  })

  it.each([
    ['its payments deleted (the section holds fewer than its count)', (lines: string[]) => lines.splice(lines.findIndex((line) => line.startsWith('{"section":"payments"')) + 1, 1), -3, /ends 3 payments short/],
    ['its transactions deleted (the postings section holds fewer than its count)', (lines: string[]) => lines.splice(lines.findIndex((line) => line.includes('"cause":')), 1), -2, /ends 2 transactions short/],
    ['a chunk that holds more than its section has left', (lines: string[]) => lines.splice(lines.findIndex((line) => line.startsWith('{"section":"payments"')), 1, lines.find((line) => line.startsWith('{"section":"payments"'))!.replace('"count":3', '"count":2')), -1, /count: the chunk holds 3 records, more than the 2 its section has left/],
  ])('refuses a snapshot with %s', async (_name, damage, added, problem) => {
    const store = await seeded(3)
    store.apply([postingChange(0, 7n), postingChange(1, 3n)])
    await store.compact()
    await closeAll()
    const lines = readFileSync(file, 'utf8').split('\n')
    damage(lines)
    writeFileSync(file, withTrailer(lines, added))
    await expect(openFile()).rejects.toThrow(problem)
  })

  it('refuses a snapshot whose trailer does not point at the start of the postings region', async () => {
    const store = await seeded(2)
    await store.compact()
    await closeAll()
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.replace(/"postings":(\d+)/, (_, n) => `"postings":${Number(n) - 3}`))
    await expect(openFile()).rejects.toThrow(StoreLoadError)
  })

  it('refuses a snapshot cut short (no last line)', async () => {
    const store = await seeded(2)
    await store.compact()
    await closeAll()
    const text = readFileSync(file, 'utf8')
    writeFileSync(file, text.slice(0, text.lastIndexOf('{"end"')))
    await expect(openFile()).rejects.toThrow(/does not end with the snapshot's last line/)
  })

  it('migrates a version 2 snapshot (a line per change, in full) to version 3, keeping the files as they were in a folder beside it', async () => {
    const full = (value: object) => JSON.stringify(value)
    const tenantLine = full({ put: 'tenant', id: ACCOUNT, value: { account: { id: ACCOUNT, created_at: AT, whitelist_enforced: false }, rng_state: [1, 2, 3, 4], wallets: [], payments: [], orders: [], payouts: [], settlements: [], whitelist: [], webhooks: [], idempotency: [], quotes: [], postings: [] } })
    const walletLine = full({ put: 'wallet', account: ACCOUNT, id: 'wal_a', value: { ...encodeWallet(wallet('wal_a', 9n, 1n)) } })
    const paymentLine = full({ put: 'payment', account: ACCOUNT, id: 'pay_000000000000000000000001', value: encodePayment(payment(1, 'wal_a')) })
    const posting = (at: number, cause: string, lines: Array<[string, string]>) => full({ append: 'postings', account: ACCOUNT, at, value: { cause, ref: 'x', at: AT, lines: lines.map(([account, amount]) => ({ account, amount })) } })
    const snapshot = [
      full({ format: 'wallet-sandbox/snapshot', version: 2, journal: 4, written_at: AT }),
      tenantLine, walletLine, paymentLine,
      posting(0, 'deposit', [['external:polygon:USDC', '-10'], ['wal_a:available', '10']]),
      posting(1, 'payment.created', [['wal_a:available', '-1'], ['wal_a:locked', '1']]),
      full({ end: true, records: 5 }),
      '',
    ].join('\n')
    const journal = `${full({ seq: 1, changes: [{ put: 'whitelist', account: ACCOUNT, id: 'wla_1', value: { id: 'wla_1', address: '0x52908400098527886E0F7030069857D2E4169EE7', network: 'polygon', label: null, created_at: AT } }] })}\n`
    writeFileSync(file, snapshot)
    writeFileSync(`${file}.journal.4`, journal)
    const { store } = await openFile()
    const account = store.accounts.get(ACCOUNT)!
    expect(account.payments.size).toBe(1)
    expect(account.postings.size).toBe(2)
    expect(account.whitelist.has('wla_1')).toBe(true)
    const state = snapshotOf(store)
    await closeAll()
    const backup = `${file}.v2-backup`
    expect(warnings.join('\n')).toContain(`written in the version 2 format; a new snapshot in version 3 (faster to load) is being written. The files as they were are kept in ${backup}.`)
    expect(readFileSync(join(backup, 'ledger.json'), 'utf8')).toBe(snapshot)
    expect(readFileSync(join(backup, 'ledger.json.journal.4'), 'utf8')).toBe(journal)
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ version: 3, journal: 5 })
    expect(filesIn()).toEqual(['ledger.json', 'ledger.json.journal.5', 'ledger.json.v2-backup'])
    expect(snapshotOf((await openFile()).store)).toBe(state)
  })

  it('migrates a version 1 file (one JSON document), keeping the original beside it, with opening-balance postings', async () => {
    const memory = createMemoryStore()
    memory.apply([tenant(), put('wallet', ACCOUNT, 'wal_a', wallet('wal_a', 5n))])
    // A file written before postings existed: balances only.
    const document = memory.toData()
    for (const account of document.accounts) delete account.postings
    const original = JSON.stringify(document, null, 2)
    writeFileSync(file, original)
    const { store, loaded } = await openFile()
    expect(loaded).toBe(true)
    const postings = store.accounts.get(ACCOUNT)!.postings
    expect(postings.size).toBe(1)
    expect(postings.transaction(1)).toMatchObject({ cause: 'opening_balance', ref: 'wal_a', lines: [{ account: 'external:polygon:USDC', amount: -5n }, { account: 'wal_a:available', amount: 5n }] })
    const migrated = snapshotOf(store)
    expect(readFileSync(`${file}.v1-backup`, 'utf8')).toBe(original)
    expect(warnings.join('\n')).toContain(`The original is kept at ${file}.v1-backup`)
    await closeAll()
    expect(JSON.parse(readFileSync(file, 'utf8').split('\n')[0]!)).toMatchObject({ version: 3 })
    expect(snapshotOf((await openFile()).store)).toBe(migrated)
  })
})

describe('the lock', () => {
  it('refuses a second store on the same data file, naming the process that holds it', async () => {
    await openFile()
    await expect(openFile()).rejects.toThrow(`Data file ${file} is in use by process ${process.pid} (lock file ${file}.lock)`)
  })

  it('takes over a stale lock left by a process that is gone', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid
    writeFileSync(`${file}.lock`, `${gone}\n`)
    await openFile()
    expect(readFileSync(`${file}.lock`, 'utf8')).toBe(`${process.pid}\n`)
    await closeAll()
    expect(existsSync(`${file}.lock`)).toBe(false)
  })

  it('takes over a lock with its own pid that it does not hold: a process before it had that pid (PID 1 of a restarted container)', async () => {
    writeFileSync(`${file}.lock`, `${process.pid}\n`)
    await openFile()
    await expect(openFile()).rejects.toThrow(`Data file ${file} is in use by process ${process.pid}`)
    await closeAll()
    expect(existsSync(`${file}.lock`)).toBe(false)
  })
})

describe('durability', () => {
  it('strict: a change is written and fsynced before durable() resolves (one fsync for the changes of a turn)', async () => {
    const syncs: Array<() => void> = []
    const store = await seeded(0, { durability: 'strict', sync: (_fd, done) => syncs.push(() => done(null)) })
    // The seeding's own commit first.
    await new Promise((resolve) => setImmediate(resolve))
    syncs.shift()!()
    expect(store.durable()).toBeUndefined()
    store.apply(paymentChanges(store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, 1))
    store.apply(paymentChanges(store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, 2))
    const durable = store.durable()
    expect(durable).toBeInstanceOf(Promise)
    let resolved = false
    void durable!.then(() => (resolved = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(readFileSync(`${file}.journal.1`, 'utf8')).toContain('pay_000000000000000000000002')
    expect(syncs).toHaveLength(1)
    await Promise.resolve()
    expect(resolved).toBe(false)
    syncs.shift()!()
    await durable
    expect(store.durable()).toBeUndefined()
  })

  it('batched: changes reach the file when the batch timer fires, at most 100 ms after the change', async () => {
    const timers: Array<{ run: () => void; ms: number }> = []
    const timer: FlushTimer = { setTimeout: (run, ms) => timers.push({ run, ms }), clearTimeout: () => {} }
    const store = await seeded(0, { timer })
    timers.shift()!.run()
    await store.flush()
    const journal = `${file}.journal.1`
    const size = statSync(journal).size
    store.apply(paymentChanges(store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, 1))
    expect(store.durable()).toBeUndefined()
    expect(statSync(journal).size).toBe(size)
    expect(timers).toHaveLength(1)
    expect(timers[0]!.ms).toBe(BATCH_MS)
    expect(BATCH_MS).toBeLessThanOrEqual(100)
    timers.shift()!.run()
    expect(readFileSync(journal, 'utf8')).toContain('pay_000000000000000000000001')
  })
})

describe('compaction', () => {
  it('writes a new snapshot in slices while changes go on, and loses nothing', async () => {
    const store = await seeded(10_000)
    await store.flush()
    // How long a slice holds the event loop is a figure of `npm run bench:scale` (longest stall), not
    // a timed test; here: the compaction yields, so changes are applied between its slices.
    let seq = 10_000
    let running = true
    const compaction = store.compact().finally(() => (running = false))
    while (running) {
      await new Promise((resolve) => setImmediate(resolve))
      store.apply(paymentChanges(store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, ++seq))
    }
    await compaction
    expect(seq).toBeGreaterThan(10_002)
    expect(filesIn()).toEqual(['ledger.json', 'ledger.json.journal.2', 'ledger.json.lock'])
    const before = snapshotOf(store)
    await closeAll()
    const again = await openFile()
    expect(snapshotOf(again.store)).toBe(before)
    expect(again.store.accounts.get(ACCOUNT)!.payments.size).toBe(seq)
  })

  it('finishes a compaction while requests keep the store busy (it takes a slice now and then), and loses nothing', async () => {
    let busyAsked = 0
    const store = await seeded(3000, { busy: () => (busyAsked++, true) })
    await store.compact()
    expect(busyAsked).toBeGreaterThan(0)
    const before = snapshotOf(store)
    await closeAll()
    expect(snapshotOf((await openFile()).store)).toBe(before)
  })

  it('rewrites, in the next compaction, the chunks of payments put while one was copying them', async () => {
    const store = await seeded(10_000)
    await store.compact()
    const payments = store.accounts.get(ACCOUNT)!.payments
    // Payments all over the file change between the slices of a compaction that copies the chunks they are in.
    let changed = 0
    let running = true
    const compaction = store.compact().finally(() => (running = false))
    while (running) {
      await new Promise((resolve) => setImmediate(resolve))
      const target = payments.values()[(changed++ * 997) % 10_000]!
      store.apply([put('payment', ACCOUNT, target.id, { ...target, status: 'completed', updated_at: `changed ${changed}` })])
    }
    await compaction
    expect(changed).toBeGreaterThan(2)
    await store.compact()
    const before = snapshotOf(store)
    await closeAll()
    expect(snapshotOf((await openFile()).store)).toBe(before)
  })

  it.each([
    // The fewest payments before a compaction can start: more than 20 change sets; more than 4096 bytes (8 lines of about 500 hold fewer).
    ['change sets', { compactAfterLines: 20, compactAfterBytes: 1 << 30 }, 20],
    ['bytes', { compactAfterLines: 1 << 30, compactAfterBytes: 4096 }, 8],
  ])('starts on its own once the journal holds more %s than the least it waits for, and goes on from the restart', async (_name, least, fewest) => {
    const store = await seeded(0, least)
    let seq = 0
    while (filesIn().includes('ledger.json.journal.1') && seq < 200) {
      store.apply(paymentChanges(store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, ++seq))
      // Written (the journal's size counts what reached the file), and a turn for a compaction to finish in.
      await store.flush()
    }
    expect(filesIn()).toEqual(['ledger.json', 'ledger.json.journal.2', 'ledger.json.lock'])
    // Not at once: only once the journal held that much (a small compaction may end in the same turn).
    expect(seq).toBeGreaterThan(fewest)
    expect(seq).toBeLessThan(200)
    const before = snapshotOf(store)
    await closeAll()
    expect(snapshotOf((await openFile(least)).store)).toBe(before)
  })

  it('compact() while one runs waits for it, then takes in what changed meanwhile', async () => {
    const store = await seeded(2)
    void store.compact()
    store.apply(paymentChanges(store.accounts.get(ACCOUNT)!.wallets.get('wal_a')!, 3))
    await store.compact()
    await store.flush()
    expect(filesIn()).toEqual(['ledger.json', 'ledger.json.journal.3', 'ledger.json.lock'])
    expect(readFileSync(`${file}.journal.3`, 'utf8')).toBe('')
    expect(readFileSync(file, 'utf8')).toContain('"count":3')
  })

  it('a restore (replace) is journaled and followed by a compaction', async () => {
    const store = await seeded(2)
    const memory = createMemoryStore()
    memory.apply([tenant('acct_other'), put('wallet', 'acct_other', 'wal_b', wallet('wal_b', 7n))])
    store.apply([{ op: 'replace', value: memory.toData() }])
    await store.compact()
    expect(filesIn()).toEqual(['ledger.json', 'ledger.json.journal.2', 'ledger.json.lock'])
    await closeAll()
    expect(snapshotOf((await openFile()).store)).toBe(snapshotOf(memory))
  })
})

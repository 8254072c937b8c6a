import fc from 'fast-check'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openStore, StoreLoadError } from '../../src/store/store.js'
import { institutionalWallet, startTestSandbox } from '../helpers/start-test-sandbox.js'

/**
 * A damaged data file is refused, and refusing it writes nothing: every file beside it keeps its
 * bytes, and no file appears or disappears (CONTRACT.md sections 13, 14 and 18). The files come from
 * a real sandbox (wallets, payments, postings, a webhook endpoint), compacted, then journaled on.
 */

const RECIPIENT = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
let root: string
/** The name and bytes of every file a real sandbox left in its folder. */
let original: Map<string, Buffer>

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'wallet-sandbox-refusal-'))
  const dir = join(root, 'original')
  const sb = await startTestSandbox({ dataFile: join(dir, 'ledger.json'), durability: 'strict', settle: 'instant' })
  await sb.api.post('/v1/webhooks').set(sb.auth()).send({ url: 'http://127.0.0.1:9/hooks' }).expect(201)
  const wallet = await institutionalWallet(sb, 'solana', 'SOL')
  for (let i = 0; i < 3; i++) await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '0.01', currency: 'SOL', source_wallet: wallet.id, recipient: RECIPIENT }).expect(201)
  await sb.sandbox.store.compact()
  for (let i = 0; i < 3; i++) await sb.api.post('/v1/payments').set(sb.auth()).send({ amount: '0.02', currency: 'SOL', source_wallet: wallet.id, recipient: RECIPIENT }).expect(201)
  await sb.close()
  original = new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]))
}, 60_000)
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** A fresh copy of the original files with `damage` applied to them; answers its folder. */
function damagedCopy(damage: (files: Map<string, Buffer>) => void): string {
  const dir = mkdtempSync(join(root, 'copy-'))
  const files = new Map([...original].map(([name, bytes]) => [name, Buffer.from(bytes)]))
  damage(files)
  for (const [name, bytes] of files) writeFileSync(join(dir, name), bytes)
  return dir
}

const snapshotName = () => 'ledger.json'
const journalName = () => [...original.keys()].find((name) => /\.journal\.\d+$/.test(name))!
const filesOf = (dir: string) => new Map(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name))]))

/** Opening the folder's ledger.json must fail with a StoreLoadError naming the file, and change nothing on disk. */
async function expectRefusedUntouched(dir: string, problem?: RegExp): Promise<string> {
  const before = filesOf(dir)
  const opening = openStore({ dataFile: join(dir, snapshotName()), warn: () => {} })
  const error = await opening.then(
    async ({ store }) => {
      await store.close()
      return undefined
    },
    (caught: unknown) => caught,
  )
  expect(error, 'the damaged file was loaded').toBeInstanceOf(StoreLoadError)
  const message = (error as Error).message
  expect(message).toContain(dir)
  if (problem) expect(message).toMatch(problem)
  const after = filesOf(dir)
  expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
  for (const [name, bytes] of before) expect(after.get(name)!.equals(bytes), `${name} was rewritten`).toBe(true)
  return message
}

describe('a data file that is refused is left byte for byte as it was', () => {
  it('has a journal and a snapshot to damage', () => {
    expect(original.has(snapshotName())).toBe(true)
    expect(journalName()).toBeDefined()
    expect(original.get(journalName())!.toString('utf8').trim().split('\n').length).toBeGreaterThanOrEqual(3)
  })

  it.each([
    ['null', 'null'],
    ['an array', '[]'],
    ['a number', '42'],
    ['a string', '"ledger"'],
    ['true', 'true'],
    ['an empty object', '{}'],
    ['JSON lines of another program', '{"level":"info","msg":"started"}\n{"level":"info","msg":"stopped"}\n'],
    ['a snapshot header of another format', '{"format":"other-tool/snapshot","version":2}\n'],
  ])('wrong kind: a data file holding %s', async (_name, content) => {
    const dir = damagedCopy((files) => {
      files.clear()
      files.set(snapshotName(), Buffer.from(content))
    })
    await expectRefusedUntouched(dir)
  })

  it.each([0.1, 0.5, 0.9, 0.999])('truncated: the snapshot cut at %s of its length', async (fraction) => {
    const dir = damagedCopy((files) => {
      const bytes = files.get(snapshotName())!
      files.set(snapshotName(), bytes.subarray(0, Math.max(1, Math.floor(bytes.length * fraction))))
    })
    await expectRefusedUntouched(dir)
  })

  it.each([
    ['binary garbage in the middle of the snapshot', (b: Buffer) => Buffer.concat([b.subarray(0, b.length >> 1), Buffer.from([0, 255, 254, 0, 10, 13]), b.subarray(b.length >> 1)])],
    ['a line of the snapshot deleted', (b: Buffer) => Buffer.from(b.toString('utf8').split('\n').filter((_, i) => i !== 2).join('\n'))],
    ['the snapshot’s lines in another order', (b: Buffer) => Buffer.from(b.toString('utf8').split('\n').reverse().join('\n'))],
    ['a NUL-filled block, as a crashed file system leaves', (b: Buffer) => Buffer.concat([b.subarray(0, 200), Buffer.alloc(512), b.subarray(712)])],
  ])('corrupted: %s', async (_name, damage) => {
    const dir = damagedCopy((files) => files.set(snapshotName(), damage(files.get(snapshotName())!)))
    await expectRefusedUntouched(dir)
  })

  it('corrupted: a damaged line in the middle of the journal (not a torn last line) names the line', async () => {
    const dir = damagedCopy((files) => {
      const lines = files.get(journalName())!.toString('utf8').split('\n')
      lines[1] = lines[1]!.slice(0, 40)
      files.set(journalName(), Buffer.from(lines.join('\n')))
    })
    await expectRefusedUntouched(dir, /line 2/)
  })

  it('any single byte changed anywhere: the file either loads or is refused untouched (property)', async () => {
    const names = [...original.keys()].filter((name) => name === snapshotName() || name === journalName())
    let refused = 0
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...names), fc.nat(), fc.integer({ min: 0, max: 255 }), async (name, position, value) => {
        const bytes = original.get(name)!
        // The journal's last line may be torn by a crash: that one is dropped with a warning, not refused.
        const limit = name === journalName() ? bytes.toString('utf8').trimEnd().lastIndexOf('\n') : bytes.length
        const at = position % Math.max(1, limit)
        if (bytes[at] === value) return
        const dir = damagedCopy((files) => {
          const copy = Buffer.from(bytes)
          copy[at] = value
          files.set(name, copy)
        })
        const before = filesOf(dir)
        try {
          const { store } = await openStore({ dataFile: join(dir, snapshotName()), warn: () => {} })
          await store.close()
        } catch (error) {
          expect(error).toBeInstanceOf(StoreLoadError)
          refused++
          const after = filesOf(dir)
          expect([...after.keys()].sort()).toEqual([...before.keys()].sort())
          for (const [file, content] of before) expect(after.get(file)!.equals(content), `${file} was rewritten`).toBe(true)
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      }),
      { numRuns: 40 },
    )
    // Most single-byte changes break a line's JSON or its schema; the rest (a digit of a name, say) still load.
    expect(refused).toBeGreaterThan(10)
  }, 60_000)
})

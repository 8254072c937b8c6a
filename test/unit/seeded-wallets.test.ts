import { describe, expect, it, vi } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox } from '../../src/sandbox.js'
import * as wallets from '../../src/ledger/seeded-wallets.js'
import type { Network } from '../../src/model/networks.js'

// The default account's wallet ids and addresses come from a table rather than its generator, so
// that a start hashes and encodes nothing for them (src/ledger/seeded-wallets.ts). The table must be
// what the generator draws, and must hold the entry a default start asks for.

const asked: Array<[string, string, Network[], Network[]]> = []
vi.mock('../../src/ledger/seeded-wallets.js', async (importOriginal) => {
  const actual = await importOriginal<typeof wallets>()
  return {
    ...actual,
    seededDraws: (...args: [string, string, Network[], Network[]]) => {
      asked.push(args)
      return actual.seededDraws(...args)
    },
  }
})

describe('seeded wallets', () => {
  it('are what the generator draws, from the table and without it', () => {
    const entries = wallets.drawnAccounts()
    expect(entries.length).toBeGreaterThan(0)
    for (const entry of entries) expect(wallets.seededDraws(...entry)).toEqual(wallets.drawSeeded(...entry))
    // Another seed, origin or list of networks is drawn.
    const [seed, origin, institutional, user] = entries[0]!
    for (const other of [['other-seed', origin, institutional, user], [seed, 'sk_test_other', institutional, user], [seed, origin, institutional.slice(1), user]] as const) {
      expect(wallets.seededDraws(other[0], other[1], [...other[2]], [...other[3]])).toEqual(wallets.drawSeeded(other[0], other[1], [...other[2]], [...other[3]]))
      expect(wallets.seededDraws(other[0], other[1], [...other[2]], [...other[3]]).ids).not.toEqual(wallets.seededDraws(...entries[0]!).ids)
    }
  })

  it("hold the default account's, under the default seed and the shipped fixtures", async () => {
    asked.length = 0
    const sandbox = await createSandbox(loadConfig({ flags: { clock: 'manual', quiet: true } }), { logger: silentLogger })
    await sandbox.close()
    const entry = asked[0]!
    const key = JSON.stringify(entry)
    // When the default seed or the fixtures change, the table's entry is this:
    expect({ entry, draws: wallets.drawSeeded(...entry) }).toEqual({ entry, draws: wallets.drawnAccounts().some((known) => JSON.stringify(known) === key) ? wallets.seededDraws(...entry) : 'not in the table' })
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { listPacks } from '../../../src/parity/packs/index.js'
import { buildIfNeeded, killAll, ROOT, startCli } from '../../helpers/cli-process.js'
import { cli } from './parity-helpers.js'

/**
 * docs/parity.md, run as printed: the worked example's "hosted" sandbox from its first block, the
 * parity run from its second, whose output must be the page's (`…` standing for ids, ports aside);
 * and the table of packs says how many steps each has.
 */

const page = readFileSync(join(ROOT, 'docs/parity.md'), 'utf8')
const example = page.split('### A worked example')[1]!.split('\n## ')[0]!
const blocks = [...example.matchAll(/^```text\n([\s\S]*?)^```$/gm)].map(([, body]) => body!.trimEnd().split('\n'))
const argsOf = (line: string) => line.replace(/^\$ npx wallet-sandbox\s*/, '').split(/\s+/).filter(Boolean)
/** Ports and ids are the run's own. */
const comparable = (line: string) => line.replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:…').replace(/\b([a-z]{2,5})_[A-Za-z0-9]{12,}\b/g, '$1_…')

beforeAll(buildIfNeeded, 180_000)
afterAll(killAll)

describe('docs/parity.md', () => {
  it('prints the worked example\'s output, exit code 1', async () => {
    const [hostedBlock, parityBlock] = blocks as [string[], string[]]
    expect(hostedBlock[0]).toBe('$ npx wallet-sandbox --port 4410 --seed hosted --whitelist-enforced')
    const hostedArgs = argsOf(hostedBlock[0]!)
    const hosted = await startCli(hostedArgs.filter((arg, i) => arg !== '--port' && hostedArgs[i - 1] !== '--port'))
    const args = argsOf(parityBlock[0]!).map((arg) => arg.replace('http://127.0.0.1:4410', hosted.ready.base_url))
    const { code, stdout, stderr } = await cli(args)
    expect(code, stderr).toBe(1)
    expect(stdout.trimEnd().split('\n').map(comparable)).toEqual(parityBlock.slice(1).map(comparable))
  }, 120_000)

  it('gives each pack the number of steps it has', () => {
    const packs = listPacks({ source: { currency: 'USDC', network: 'polygon' }, funded: false, run: 'r' })
    const rows = Object.fromEntries([...page.matchAll(/^\| `(\w+)` \| (\d+) \|/gm)].map(([, name, steps]) => [name, Number(steps)]))
    expect(rows).toEqual({ ...Object.fromEntries(packs.map((pack) => [pack.pack, pack.steps.length])), all: packs.reduce((sum, pack) => sum + pack.steps.length, 0) })
  })
})

import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildIfNeeded, killAll, launch, lineOf, ROOT, runToExit, startCli } from '../../helpers/cli-process.js'

/**
 * The terminal session of docs/cli.md, run as printed: the sandbox with the first block's flags,
 * `listen` from the second, `trigger` from the third; each block's output lines are checked against
 * what the command printed, `…` standing for an id.
 */

const section = readFileSync(join(ROOT, 'docs/cli.md'), 'utf8').split('### A terminal session')[1]!.split('\n### ')[0]!
const blocks = [...section.matchAll(/^```text\n([\s\S]*?)^```$/gm)].map(([, body]) => body!.trimEnd().split('\n'))
/** `$ npx wallet-sandbox listen` → `['listen']`. */
const argsOf = (block: string[]) => block[0]!.replace(/^\$ npx wallet-sandbox\s*/, '').split(/\s+/).filter(Boolean)
const patternOf = (line: string) => new RegExp(`^${line.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\w+')}$`)

beforeAll(buildIfNeeded, 180_000)
afterAll(killAll)

describe('docs/cli.md: the terminal session', () => {
  it('has the sandbox, listen and trigger, each in a terminal of its own', () => {
    expect(blocks.map((block) => block[0])).toEqual(['$ npx wallet-sandbox --clock manual --settle manual', '$ npx wallet-sandbox listen', '$ npx wallet-sandbox trigger payment.failed'])
  })

  it('prints what the page shows', async () => {
    const [sandboxBlock, listenBlock, triggerBlock] = blocks as [string[], string[], string[]]
    const sandbox = await startCli(argsOf(sandboxBlock))
    const env = { WALLET_SANDBOX_BASE_URL: sandbox.ready.base_url }
    const listen = launch(argsOf(listenBlock), { env })
    await lineOf(listen, (line) => (line === 'Ready' ? line : undefined))
    const trigger = await runToExit(argsOf(triggerBlock), { env })
    expect(trigger.code).toBe(0)
    const printed = trigger.stdout.trimEnd().split('\n')
    expect(printed).toHaveLength(triggerBlock.length - 1)
    triggerBlock.slice(1).forEach((line, index) => expect(printed[index]).toMatch(patternOf(line)))
    await lineOf(listen, (line) => (line.includes('payment.failed') ? line : undefined))
    const heard = listen.stdout().trimEnd().split('\n')
    expect(heard).toHaveLength(listenBlock.length - 1)
    listenBlock.slice(1).forEach((line, index) => expect(heard[index]).toMatch(patternOf(line)))
  })
})

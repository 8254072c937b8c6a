import { execFile } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config.js'
import { silentLogger } from '../../src/logger.js'
import { createSandbox, type Sandbox } from '../../src/sandbox.js'

/**
 * docs/usage.md says its curl tour works as printed against a fresh `npm start`. This runs every
 * shell block of the page, in order, with bash and curl against a sandbox on port 0 (the printed
 * address replaced by its own), and checks the answers the page shows in its comments.
 */

const ROOT = resolve(import.meta.dirname, '../..')
const PAGE = readFileSync(join(ROOT, 'docs/usage.md'), 'utf8')
const PRINTED_ORIGIN = 'http://127.0.0.1:4400'

const script = [...PAGE.matchAll(/^```sh\n([\s\S]*?)^```$/gm)].map(([, body]) => body!).join('\n')

/**
 * A comment shows an answer when it starts with what an answer starts with: JSON, a JSON fragment
 * or a response header line. Lines that go on with `#  ` continue it; anything after `←` is a note.
 * Other comments are prose.
 */
function shownAnswers(text: string): string[] {
  const answers: string[] = []
  let current: string | undefined
  for (const line of text.split('\n')) {
    const comment = /(?:^|\s)# (.*)$/.exec(line)?.[1]
    const fullLine = line.trimStart().startsWith('#')
    if (fullLine && current !== undefined && /^# {2}/.test(line.trimStart())) {
      current += ' ' + comment!.trim()
      continue
    }
    if (current !== undefined) answers.push(current)
    current = comment !== undefined && /^(\{|"|HTTP\/|[A-Z][A-Za-z-]+: )/.test(comment) ? comment.split('←')[0] : undefined
  }
  if (current !== undefined) answers.push(current)
  return answers
}

/** `…` stands for anything; whitespace is ignored, since answers are compact and comments wrap. */
const squeeze = (text: string) => text.replace(/\s+/g, '')
const patternOf = (answer: string) => squeeze(answer).split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*?')

describe('docs/usage.md, the curl tour', () => {
  let sandbox: Sandbox
  let output: string

  beforeAll(async () => {
    // What `npm start` runs (default seed, real clock, --settle auto), on port 0. The rate limit is
    // off, as the page says to do when pasting the whole tour at once.
    const config = loadConfig({ flags: { port: 0, rateLimit: 0, quiet: true } as never })
    sandbox = await createSandbox(config, { logger: silentLogger })
    const { url } = await sandbox.listen()
    const origin = url.replace(/\/v1$/, '').replace(/\/$/, '')
    const run = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script.replaceAll(PRINTED_ORIGIN, origin)], {
      cwd: ROOT,
      timeout: 60_000,
    })
    output = run.stdout
  }, 90_000)

  afterAll(async () => {
    await sandbox?.close()
  })

  it('has the blocks and the answers it is checked by', () => {
    expect(script).toContain('curl')
    expect(shownAnswers(script).length).toBeGreaterThanOrEqual(8)
  })

  it('answers what the comments show, in order', () => {
    const squeezed = squeeze(output)
    let from = 0
    for (const answer of shownAnswers(script)) {
      const match = new RegExp(patternOf(answer)).exec(squeezed.slice(from))
      expect(match, `after ${JSON.stringify(squeezed.slice(Math.max(0, from - 200), from))}\nexpected: ${answer}`).not.toBeNull()
      from += match!.index + match![0].length
    }
  })

  it('meets exactly the errors it shows and never a 429', () => {
    const codes = [...output.matchAll(/"code":"([a-z_]+)"/g)].map(([, code]) => code)
    expect(codes).toEqual(['insufficient_funds', 'parameter_invalid', 'wallet_not_empty'])
  })

  it('replays the idempotent payment with the first answer and its request id', () => {
    const ids = [...output.matchAll(/^X-Request-Id: (\S+)/gim)].map(([, id]) => id)
    expect(ids).toHaveLength(2)
    expect(ids[1]).toBe(ids[0])
  })
})

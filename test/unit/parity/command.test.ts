import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parityCommand, type CommandIo } from '../../../src/parity/commands.js'

/**
 * `parity` refuses what it must before any request (exit code 2, one line on stderr), in process:
 * a server stands where the hosted sandbox would be and counts what reaches it. (The CLI's own
 * refusals, through commander, are in test/e2e/parity/safety.test.ts.)
 */

let hits = 0
const server = createServer((_req, res) => void (hits++, res.end('{}')))
let against = ''
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  against = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

function run(flags: Record<string, unknown>, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = []
  const err: string[] = []
  const io: CommandIo = { out: (line) => out.push(line), err: (line) => err.push(line), stdout: {}, stderr: { write: () => true }, env }
  return parityCommand({ against, ...flags }, {}, io).then((code) => ({ code, out, err }))
}

describe('parity, before any request', () => {
  it.each([
    ['a live --local-api-key', { apiKey: 'sk_test_fine_key_1', local: 'http://127.0.0.1:9', localApiKey: 'rk_live_abcdefgh12345678' }, /^wallet-sandbox parity: --local-api-key is a live key \(sk_live_…\)/],
    ['no key at all', {}, /^wallet-sandbox parity: --api-key \(or WALLET_SANDBOX_PARITY_API_KEY\) is missing/],
    ['an unknown pack', { apiKey: 'sk_test_fine_key_1', pack: 'everything' }, /--pack everything is not a pack: core, payouts, trading, settlements, webhooks, all \(parity --list shows their steps\)$/],
    ['a rate of 0', { apiKey: 'sk_test_fine_key_1', rate: '0' }, /--rate 0 is not a number of requests a second above 0/],
    ['an accept file that does not exist', { apiKey: 'sk_test_fine_key_1', accept: '/nonexistent/accepted.json' }, /--accept \/nonexistent\/accepted.json: cannot read it \(ENOENT\); --write-accept \/nonexistent\/accepted.json writes one/],
    ['--replay beside --against', { replay: 'suite.jsonl' }, /--replay sends the recording's requests to the local side only; --against has no place beside it/],
  ])('refuses %s, exit code 2', async (_, flags, message) => {
    const { code, out, err } = await run(flags)
    expect({ code, out }).toEqual({ code: 2, out: [] })
    expect(err).toHaveLength(1)
    expect(err[0]).toMatch(message)
    expect(err[0]).not.toContain('abcdefgh')
    expect(hits).toBe(0)
  })
})

import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, buildIfNeeded, cleanEnv, killAll, launch, lineOf, runToExit, startCli, type CliProcess, type ReadyLine } from '../../helpers/cli-process.js'
import { refusedUrl } from '../../helpers/webhook-receiver.js'

/**
 * trigger, listen and tail in colour on a terminal (a real one: `script` gives the command a
 * pseudo-terminal), none when piped or under NO_COLOR; and the control token they take.
 */

type Sandbox = CliProcess & { ready: ReadyLine }
const TOKEN = 'colour-control-token'
let sandbox: Sandbox
beforeAll(async () => {
  buildIfNeeded()
  sandbox = await startCli(['--clock', 'manual', '--settle', 'manual', '--rate-limit', '0', '--control-token', TOKEN])
}, 180_000)
afterAll(killAll)

const ESCAPE = '\x1b['
const env = () => ({ WALLET_SANDBOX_BASE_URL: sandbox.ready.base_url, WALLET_SANDBOX_CONTROL_TOKEN: TOKEN })

/** The command's output as a terminal shows it: stdout and stderr on one pseudo-terminal. */
async function onTerminal(args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const command = [process.execPath, BIN, ...args].map((word) => `'${word.replace(/'/g, `'\\''`)}'`).join(' ')
  // -e: script exits with the command's code, and execFile rejects on a failure with the output still on it.
  const { stdout } = await promisify(execFile)('script', ['-qec', command, '/dev/null'], { env: cleanEnv({ ...env(), ...extraEnv }) }).catch((error: { stdout: string }) => error)
  return stdout.replace(/\r\n/g, '\n')
}

describe('colour', () => {
  it('trigger on a terminal: the failure in red, the control calls dim', async () => {
    const output = await onTerminal(['trigger', 'payment.failed'])
    expect(output).toContain(`${ESCAPE}31mpayment.failed${ESCAPE}0m evt_`)
    expect(output).toMatch(/\x1b\[2mPOST \/_sandbox\/payments\/pay_\w+\/fail\x1b\[0m/)
  })

  it('none on a terminal under NO_COLOR, and none when piped', async () => {
    expect(await onTerminal(['trigger', 'payment.failed'], { NO_COLOR: '1' })).not.toContain(ESCAPE)
    const piped = await runToExit(['trigger', 'payment.failed'], { env: env() })
    expect(piped.code).toBe(0)
    expect(piped.stdout).toContain('payment.failed evt_')
    expect(piped.stdout + piped.stderr).not.toContain(ESCAPE)
  })

  it('a failure on a terminal stands out in red', async () => {
    expect(await onTerminal(['trigger', 'payment.refunded'])).toContain(`${ESCAPE}31mwallet-sandbox trigger: there is no event type`)
  })

  it('tail: a 4xx in yellow (FORCE_COLOR asks for colour in a pipe)', async () => {
    const proc = launch(['tail'], { env: { ...env(), FORCE_COLOR: '1' } })
    await lineOf(proc, (line) => (line === 'Ready' ? line : undefined))
    await fetch(`${sandbox.ready.url}/payments/pay_missing`, { headers: { authorization: `Bearer ${sandbox.ready.api_key}` } })
    const line = await lineOf(proc, (text) => (text.includes('pay_missing') ? text : undefined))
    expect(line).toContain(`${ESCAPE}33m404${ESCAPE}0m`)
  })

  it('listen: [ERR] red, and its columns aligned after the longest event type', async () => {
    const proc = launch(['listen', '--forward-to', await refusedUrl()], { env: { ...env(), FORCE_COLOR: '1' } })
    await lineOf(proc, (line) => (line.endsWith('Ready') ? line : undefined))
    await runToExit(['trigger', 'settlement.step_completed'], { env: env() })
    const visible = () => proc.stdout().replace(/\x1b\[\d+m/g, '').split('\n')
    // Every event printed, and its forward answered.
    await lineOf(proc, () => (visible().filter((text) => text.startsWith('[ERR]')).length === 3 ? true : undefined))
    const events = visible().filter((text) => /^\d{4}-/.test(text))
    expect(events.map((text) => text.split(/ +/)[1])).toEqual(['settlement.created', 'settlement.processing', 'settlement.step_completed'])
    expect(new Set(events.map((text) => text.indexOf(' evt_'))).size).toBe(1)
    expect(proc.stdout()).toContain(`${ESCAPE}31m[ERR]${ESCAPE}0m POST `)
  })
})

describe('--control-token', () => {
  it.each(['trigger', 'listen', 'tail'])('is in the Options: list of %s', async (command) => {
    const { stdout } = await runToExit([command, '--help'])
    expect(stdout.split('Options:')[1]).toMatch(/^ {2}--control-token <token> /m)
  })

  it('is taken as a flag of the command, and without it the control API refuses, said in one line', async () => {
    const given = await runToExit(['trigger', 'payment.created', '--base-url', sandbox.ready.base_url, '--control-token', TOKEN])
    expect(given.code, given.stderr).toBe(0)
    const without = await runToExit(['trigger', 'payment.created', '--base-url', sandbox.ready.base_url])
    expect(without.code).toBe(1)
    expect(without.stderr).toMatch(/^wallet-sandbox trigger: .*--control-token.*\n$/)
  })
})

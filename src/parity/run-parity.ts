import { randomBytes } from 'node:crypto'
import { judge, readAcceptFile, seenKeys, writeAcceptFile } from './baseline.js'
import { paintFor, wantsColour } from '../colour.js'
import { createSide } from './http-side.js'
import { humanReport } from './human-output.js'
import { listPacks, PACK_NAMES, stepsOf } from './packs/index.js'
import type { Sleep } from './pacer.js'
import { createProgress, type ProgressStream } from './progress.js'
import { readRecording } from './recording.js'
import { runReplay } from './replay.js'
import { buildReport, reportText } from './report.js'
import { scrubKnown } from './secrets.js'
import { checkSides, openLocal, type LocalSandbox, type LocalSide } from './sides.js'
import { runPack } from './run-pack.js'
import type { StepResult } from './step-result.js'
import { EXIT, hostedRoot, rateOf, sandboxKey, UsageError, writeNamedFile } from './usage.js'

/**
 * `wallet-sandbox parity` (CONTRACT.md section 22): a pack, or a replayed recording, run against the
 * local sandbox and the hosted one (or the recording's answers), compared, judged against the
 * accepted keys, and told; resolves with the exit code.
 */

export interface ParityFlags {
  against?: string
  apiKey?: string
  pack?: string
  sourceWallet?: string
  local?: string
  localApiKey?: string
  rate?: string
  accept?: string
  writeAccept?: string
  report?: string
  json?: boolean
  list?: boolean
  replay?: string
}

export interface ParityIo {
  out(line: string): void
  stdout: { isTTY?: boolean }
  stderr: ProgressStream
  env: Record<string, string | undefined>
  /** The program's `--control-token`: the local sandbox's. */
  controlToken?: string
  /** A sandbox of the run's own, as `exec` starts one. */
  startLocal(): Promise<LocalSandbox>
  sleep?: Sleep
}

/** The hosted sandbox allows 10 requests a second; parity stays under it. */
export const DEFAULT_RATE = 8
/** Steps that need no money still need a currency and a network. */
const UNFUNDED_SOURCE = { currency: 'USDC', network: 'polygon' }

export async function runParity(flags: ParityFlags, io: ParityIo): Promise<number> {
  if (flags.list) return listAll(flags.json === true, io)
  const rate = rateOf(flags.rate, DEFAULT_RATE)
  const accepted = flags.accept === undefined ? [] : readAcceptFile(flags.accept)
  if (flags.replay !== undefined) return replay(flags.replay, flags, accepted, rate, io)
  if (flags.against === undefined) throw new UsageError('--against is missing: the hosted sandbox\'s API URL, ending in /v1 (or --replay <file>, or --list)')
  const root = hostedRoot(flags.against)
  const apiKey = sandboxKey(flags.apiKey ?? io.env.WALLET_SANDBOX_PARITY_API_KEY, '--api-key (or WALLET_SANDBOX_PARITY_API_KEY)')
  const pack = flags.pack ?? 'core'
  if (!PACK_NAMES.includes(pack)) throw new UsageError(`--pack ${pack} is not a pack: ${PACK_NAMES.join(', ')} (parity --list shows their steps)`)
  const hosted = createSide({ name: 'hosted', root, apiKey, rate, sleep: io.sleep })
  const local = await openLocal({ url: flags.local, apiKey: flags.localApiKey, controlToken: io.controlToken, start: io.startLocal, rate, sleep: io.sleep })
  const startedAt = new Date()
  let run: { results: StepResult[]; retries429: number }
  try {
    const source = await checkSides(hosted, local.side, flags.sourceWallet)
    const context = { source: source ?? UNFUNDED_SOURCE, funded: source !== undefined, run: randomBytes(4).toString('hex') }
    const progress = createProgress(io.stderr, `parity ${pack}`)
    run = await runPack(stepsOf(pack, context)!, {
      local: local.side, hosted, context, sourceIds: { local: source?.localId, hosted: source?.hostedId },
      onStep: (index, total, step) => progress.step(index, total, step.name),
    }).finally(() => progress.done())
  } finally {
    await local.close()
  }
  const title = `wallet-sandbox parity: pack ${pack}, ${local.description} against ${flags.against}`
  return finish({ against: flags.against, pack, startedAt, ...run }, { flags, accepted, io, title, keys: [apiKey, local.apiKey] })
}

async function replay(file: string, flags: ParityFlags, accepted: string[], rate: number, io: ParityIo): Promise<number> {
  const extra = (['against', 'pack', 'sourceWallet'] as const).find((name) => flags[name] !== undefined)
  if (extra) throw new UsageError(`--replay sends the recording's requests to the local side only; --${extra.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)} has no place beside it`)
  const exchanges = readRecording(file)
  const local: LocalSide = await openLocal({ url: flags.local, apiKey: flags.localApiKey, controlToken: io.controlToken, start: io.startLocal, rate, sleep: io.sleep })
  const startedAt = new Date()
  const progress = createProgress(io.stderr, 'parity replay')
  let run: Awaited<ReturnType<typeof runReplay>>
  try {
    run = await runReplay(exchanges, local.side, (index, total, name) => progress.step(index, total, name)).finally(() => progress.done())
  } finally {
    await local.close()
  }
  const title = `wallet-sandbox parity: replay of ${file} (${exchanges.length} exchanges), ${local.description}`
  return finish({ against: file, pack: 'replay', startedAt, ...run }, { flags, accepted, io, title, keys: [local.apiKey] })
}

/** The baseline, the report and the output, the same for a pack and a replay; the exit code. */
function finish(
  run: { against: string; pack: string; startedAt: Date; results: StepResult[]; retries429: number; unmapped?: number },
  how: { flags: ParityFlags; accepted: string[]; io: ParityIo; title: string; keys: string[] },
): number {
  const { flags, io } = how
  const seen = seenKeys(run.results)
  if (flags.writeAccept !== undefined) writeAcceptFile(flags.writeAccept, seen)
  // Keys just written are this run's baseline: the run that writes it passes.
  const verdict = judge(run.results, flags.writeAccept === undefined ? how.accepted : [...how.accepted, ...seen])
  const report = buildReport({ against: run.against, pack: run.pack, startedAt: run.startedAt, steps: run.results, retries429: run.retries429, unmapped: run.unmapped, verdict })
  const text = reportText(report, how.keys)
  if (flags.report !== undefined) writeNamedFile('--report', flags.report, text)
  if (flags.json) io.out(text.trimEnd())
  else for (const line of humanReport(report, paintFor(wantsColour(io.stdout, io.env)), how.title)) io.out(scrubKnown(line, how.keys))
  return verdict.new.length > 0 ? EXIT.newDifferences : EXIT.same
}

function listAll(json: boolean, io: ParityIo): number {
  const packs = listPacks({ source: UNFUNDED_SOURCE, funded: false, run: 'r' })
  if (json) {
    io.out(JSON.stringify(packs, null, 2))
    return EXIT.same
  }
  for (const pack of packs) {
    io.out(`${pack.pack}: ${pack.description} (${pack.steps.length} steps)`)
    const width = Math.max(...pack.steps.map((step) => step.operation.length))
    for (const [i, step] of pack.steps.entries()) io.out(`  ${String(i + 1).padStart(2)}. ${step.operation.padEnd(width)}  ${step.name}${step.needs_source_wallet ? '  (needs --source-wallet)' : ''}`)
    io.out('')
  }
  io.out(`all: every pack above, in this order (${packs.reduce((sum, pack) => sum + pack.steps.length, 0)} steps)`)
  return EXIT.same
}

// `npm run bench:fuzz [-- --requests N --seed S]`: the fuzzer of test/fuzz (10,000 generated requests
// over every /v1 and /_sandbox operation of the OpenAPI document by default), against a sandbox in
// this process. Prints a table; fails on any 5xx, any answer outside the document, or any balance
// that no longer recomputes from its postings. The seed is printed: the same seed replays the run.
import { mkdirSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { build } from 'esbuild'
import { ROOT, printTable } from './lib.mjs'

const { values } = parseArgs({ options: { requests: { type: 'string', default: '10000' }, seed: { type: 'string' } } })
const requests = Number(values.requests)
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed)

// The fuzzer is TypeScript shared with the test suite; bundled here (dependencies stay external) into
// .bench-tmp/, one level under the root like src/, so the sandbox finds its fixtures and package.json.
mkdirSync(`${ROOT}.bench-tmp`, { recursive: true })
const outfile = `${ROOT}.bench-tmp/fuzz.mjs`
await build({ entryPoints: [`${ROOT}test/fuzz/run-fuzz.ts`], bundle: true, platform: 'node', format: 'esm', packages: 'external', outfile, logLevel: 'warning' })
const { runFuzz, describeFindings } = await import(pathToFileURL(outfile).href)

console.log(`fuzzing with seed ${seed} (npm run bench:fuzz -- --seed ${seed} replays it)\n`)
const started = performance.now()
const report = await runFuzz({ requests, seed, onProgress: (done) => process.stderr.write(`${done} requests\n`) })
const seconds = (performance.now() - started) / 1000
const count = (statusClass) => report.byClass[statusClass] ?? 0
printTable(
  `Fuzzing: ${report.operations} operations of the OpenAPI document, seed ${seed}`,
  ['requests', '2xx', '4xx', '5xx', 'no answer', 'schema violations', 'ledger violations', 'operations reaching 2xx', 'time'],
  [[report.requests, count('2xx'), count('4xx'), count('5xx'), count('none'), report.schemaViolations.length, report.ledgerViolations.length, `${report.succeeded.size} of ${report.operations}`, `${seconds.toFixed(0)} s`]],
)
const findings = describeFindings(report, 50)
for (const line of findings) console.error(line)
if (findings.length > 0) process.exit(1)

// `npm run bench`: runs every bench/*.bench.mjs, each in its own child process, in a fixed order
// (http, cold-start, then the others alphabetically), and fails if any of them fails.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const dir = fileURLToPath(new URL('.', import.meta.url))
const FIRST = ['http.bench.mjs', 'cold-start.bench.mjs']
const found = readdirSync(dir).filter((name) => name.endsWith('.bench.mjs'))
const order = [...FIRST.filter((name) => found.includes(name)), ...found.filter((name) => !FIRST.includes(name)).sort()]

const failed = []
for (const name of order) {
  console.log(`== ${name}\n`)
  const started = performance.now()
  const { status, signal } = spawnSync(process.execPath, [fileURLToPath(new URL(name, import.meta.url))], { stdio: 'inherit' })
  const seconds = ((performance.now() - started) / 1000).toFixed(0)
  if (status !== 0) {
    failed.push(name)
    console.log(`${name} failed (${signal ? `signal ${signal}` : `exit code ${status}`}) after ${seconds} s\n`)
  } else console.log(`(${name}: ${seconds} s)\n`)
}
if (failed.length > 0) {
  console.log(`${failed.length} of ${order.length} benchmarks failed: ${failed.join(', ')}`)
  process.exit(1)
}

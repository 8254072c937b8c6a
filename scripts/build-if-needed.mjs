// Builds dist/ when it is missing or older than any file in src/, so `npm start` works on a fresh clone.
// The build takes from a few seconds to a minute, by the machine and its load; so it says each step as
// it starts and how long it took, on stderr (stdout is the sandbox's banner), rather than a figure
// that a busy machine makes wrong.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

const say = (text) => process.stderr.write(`wallet-sandbox: ${text}\n`)
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`

const STEPS = [
  ['compiling src/ to dist/ (tsc)', ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']],
  ['bundling the command line and the library, making their code cache (scripts/bundle-cli.mjs)', ['scripts/bundle-cli.mjs']],
]

const outputs = ['dist/cli/main.js', 'dist/cli.bundle.cjs', 'dist/code-cache.js', 'dist/public.js', 'dist/library.cjs', 'dist/library.mjs']
const built = outputs.every((file) => existsSync(file)) ? Math.min(...outputs.map((file) => statSync(file).mtimeMs)) : 0
if (built === 0 || newest('src') > built) {
  const started = performance.now()
  const reason = built === 0 ? 'dist/ is missing' : 'src/ changed since the last build'
  say(`building dist/ (${reason}), in ${STEPS.length} steps; a start builds again only when src/ changes`)
  STEPS.forEach(([what, args], index) => {
    const stepStarted = performance.now()
    say(`${index + 1}/${STEPS.length} ${what}…`)
    execFileSync(process.execPath, args, { stdio: 'inherit' })
    say(`${index + 1}/${STEPS.length} done in ${seconds(stepStarted)}`)
  })
  say(`built in ${seconds(started)}`)
}

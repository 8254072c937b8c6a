// Builds dist/ when it is missing or older than any file in src/, so `npm start` works on a fresh clone.
// The build takes about 10 s, so it says what it is doing (on stderr: stdout is the sandbox's banner).
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

const outputs = ['dist/cli/main.js', 'dist/cli.bundle.cjs', 'dist/code-cache.js', 'dist/public.js']
const built = outputs.every((file) => existsSync(file)) ? Math.min(...outputs.map((file) => statSync(file).mtimeMs)) : 0
if (built === 0 || newest('src') > built) {
  const started = performance.now()
  const reason = built === 0 ? 'dist/ is missing' : 'src/ changed since the last build'
  process.stderr.write(`wallet-sandbox: building dist/ (${reason}); this takes about 10 s and happens again only when src/ changes…\n`)
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' })
  execFileSync(process.execPath, ['scripts/bundle-cli.mjs'], { stdio: 'inherit' })
  process.stderr.write(`wallet-sandbox: built in ${((performance.now() - started) / 1000).toFixed(1)} s\n`)
}

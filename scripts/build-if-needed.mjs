// Builds dist/ when it is missing or older than any file in src/, so `npm start` works on a fresh clone.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

const newest = (dir) =>
  readdirSync(dir, { withFileTypes: true }).reduce((latest, entry) => {
    const path = join(dir, entry.name)
    return Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs)
  }, 0)

const outputs = ['dist/cli.js', 'dist/cli.bundle.cjs', 'dist/code-cache.js', 'dist/public.js']
const built = outputs.every((file) => existsSync(file)) ? Math.min(...outputs.map((file) => statSync(file).mtimeMs)) : 0
if (built === 0 || newest('src') > built) {
  execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' })
  execFileSync(process.execPath, ['scripts/bundle-cli.mjs'], { stdio: 'inherit' })
}

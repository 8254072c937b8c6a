import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { CONFIG_KEYS, envName } from '../../src/config.js'

/**
 * What the image promises, read from the Dockerfile (../shared/tools/container-smoke.sh builds and
 * runs it; see docs/docker.md): configured by WALLET_SANDBOX_* variables only, health-checked by
 * bin/health-check.js.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** Instructions with their continuation lines joined, without comments. */
const instructions = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')
  .replace(/\\\n/g, ' ')
  .split('\n')
  .map((line) => line.trim())
  .filter((line) => line && !line.startsWith('#'))
const runtime = instructions.slice(instructions.findLastIndex((line) => line.startsWith('FROM ')))
const CONFIG_VARIABLES = new Set(CONFIG_KEYS.map(envName))

describe('the Dockerfile', () => {
  it('sets only WALLET_SANDBOX_ variables that are settings, and listens on every interface at 4400', () => {
    const set = runtime.filter((line) => line.startsWith('ENV ')).flatMap((line) => [...line.matchAll(/(\w+)=(\S+)/g)].map(([, name, value]): [string, string] => [name!, value!]))
    const sandboxVariables = set.filter(([name]) => name.startsWith('WALLET_SANDBOX_'))
    expect(sandboxVariables.filter(([name]) => !CONFIG_VARIABLES.has(name))).toEqual([])
    expect(Object.fromEntries(sandboxVariables)).toEqual({ WALLET_SANDBOX_HOST: '0.0.0.0', WALLET_SANDBOX_PORT: '4400' })
    expect(runtime).toContain('EXPOSE 4400')
  })

  it('starts the CLI with no flags, so that the environment configures it', () => {
    expect(runtime.filter((line) => /^(ENTRYPOINT|CMD) /.test(line))).toEqual(['ENTRYPOINT ["node", "bin/wallet-sandbox.js"]'])
  })

  it('checks health with bin/health-check.js, which it copies', () => {
    const healthcheck = runtime.find((line) => line.startsWith('HEALTHCHECK '))
    expect(healthcheck).toMatch(/ CMD \["node", "bin\/health-check\.js"\]$/)
    expect(runtime).toContain('COPY bin ./bin')
    expect(runtime).toContain('COPY --from=build /app/dist ./dist')
  })
})

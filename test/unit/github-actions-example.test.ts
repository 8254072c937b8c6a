import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { describe, expect, it } from 'vitest'
import { CONFIG_KEYS, envName, loadConfig } from '../../src/config.js'
import { HEALTH_PATH } from '../../src/health-check.js'

/**
 * examples/github-actions/wallet-sandbox.yml, the workflow docs/docker.md shows: its service
 * variables are real settings with valid values, its health command is the image's, and the job
 * reaches the service where the service publishes it. (`yaml` is not a dependency of this project:
 * it is in node_modules through @apideck/portman's openapi-format.)
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const FILE = 'examples/github-actions/wallet-sandbox.yml'
const text = readFileSync(join(ROOT, FILE), 'utf8')
const workflow = parse(text) as {
  jobs: Record<string, {
    'runs-on': string
    services: Record<string, { image: string; ports: string[]; env: Record<string, string>; options: string }>
    steps: Array<{ uses?: string; run?: string; env?: Record<string, string> }>
  }>
}
const job = workflow.jobs.test!
const service = job.services['wallet-sandbox']!
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8')

describe(FILE, () => {
  it('configures the service with WALLET_SANDBOX_ variables that are settings, with values the sandbox accepts', () => {
    const settings = new Set(CONFIG_KEYS.map(envName))
    expect(Object.keys(service.env).length).toBeGreaterThan(0)
    expect(Object.keys(service.env).filter((name) => !settings.has(name))).toEqual([])
    expect(Object.values(service.env).every((value) => typeof value === 'string')).toBe(true)
    expect(loadConfig({ env: service.env })).toMatchObject({ settle: 'instant', seed: 'ci', clock: 'manual', rateLimit: 0, controlToken: 'ci-control-token' })
  })

  it('checks health with the command of the image, at the path of the health route', () => {
    const healthCmd = /--health-cmd "([^"]+)"/.exec(service.options)?.[1]
    expect(healthCmd).toBe('node /app/bin/health-check.js')
    expect(dockerfile).toMatch(/^WORKDIR \/app$/m)
    expect(dockerfile).toContain('CMD ["node", "bin/health-check.js"]')
    expect(existsSync(join(ROOT, 'bin/health-check.js'))).toBe(true)
    expect(HEALTH_PATH).toBe('/_sandbox/health')
    expect(service.options).toMatch(/--health-timeout 10s/)
  })

  it('publishes the port the image listens on, and the test step uses it on localhost', () => {
    expect(service.ports).toEqual(['4400:4400'])
    expect(dockerfile).toMatch(/WALLET_SANDBOX_PORT=4400/)
    const test = job.steps.find((step) => step.run === 'npm test')!
    expect(test.env).toMatchObject({ WALLET_API_URL: 'http://localhost:4400/v1', SANDBOX_CONTROL_URL: 'http://localhost:4400/_sandbox', SANDBOX_CONTROL_TOKEN: service.env.WALLET_SANDBOX_CONTROL_TOKEN })
  })

  it('gives the test step the default key of the shipped fixtures', () => {
    const fixtures = JSON.parse(readFileSync(join(ROOT, 'fixtures/accounts.json'), 'utf8'))
    const test = job.steps.find((step) => step.run === 'npm test')!
    expect(test.env!.WALLET_API_KEY).toBe(fixtures.default_account.keys.find((key: { type: string }) => key.type === 'secret').key)
  })

  it('is the workflow docs/docker.md shows', () => {
    expect(readFileSync(join(ROOT, 'docs/docker.md'), 'utf8')).toContain(`\`\`\`yaml\n${text}\`\`\``)
  })
})

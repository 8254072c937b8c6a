import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Container tests need an engine and a built image: `npm run test:container` (vitest.container.config.ts).
    exclude: [...configDefaults.exclude, 'test/container/**'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report is what .ci/run counts ("N passed, M failed").
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
})

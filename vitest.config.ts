import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // The JSON report is what .ci/run counts ("N passed, M failed").
    reporters: ['default', 'json'],
    outputFile: { json: '.vitest-report.json' },
  },
})

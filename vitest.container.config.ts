import { defineConfig } from 'vitest/config'

// `npm run test:container`: tests that start the image in a container engine (slow, and they need one),
// kept out of `npm test` (vitest.config.ts excludes test/container/).
export default defineConfig({
  test: {
    include: ['test/container/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    pool: 'forks',
  },
})

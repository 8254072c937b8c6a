// Bundles the command-line entry into one file, dist/cli.bundle.mjs, which bin/wallet-sandbox.js runs.
// Why: express's dependencies and zod ship as hundreds of small modules, and resolving and loading
// them was most of the start-up time (about 320 ms unbundled, 215 ms bundled, on this project's
// machines). The library entry (dist/public.js) stays plain tsc output.
import { build } from 'esbuild'

await build({
  stdin: { contents: "import { main } from './src/cli.ts'\nawait main()\n", resolveDir: '.', loader: 'ts', sourcefile: 'cli-entry.ts' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile: 'dist/cli.bundle.mjs',
  // Readable stack traces in the logs matter more than the few ms minifying names would save.
  minifyWhitespace: true,
  minifySyntax: true,
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Bundled CommonJS packages (express and its dependencies) call require() for node built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
})

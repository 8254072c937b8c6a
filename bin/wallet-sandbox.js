#!/usr/bin/env node
// The CLI ships bundled into one file (see scripts/bundle-cli.mjs): it starts faster.
import '../dist/cli.bundle.mjs'

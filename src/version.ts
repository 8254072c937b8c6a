import { readFileSync } from 'node:fs'

/** The package version, read once from package.json next to src/ or dist/. */
export const VERSION: string = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version

/** The header every HTTP answer carries with that version (CONTRACT.md section 20). */
export const VERSION_HEADER = 'Wallet-Sandbox-Version'

import type { ControlClient } from './control-client.js'

/** Warned once per process: a long suite should not repeat it for every test. */
let warned = false

const WARNING =
  'wallet-sandbox: a sandbox-wide %s on a sandbox this process did not start (exec or WALLET_SANDBOX_BASE_URL) affects every test that shares it. ' +
  'Use an account of your own for it (sandbox.newAccount(): account.advanceClock(), account.snapshot(), account.restore()).'

/**
 * The control client of a sandbox that other tests may share (CONTRACT.md section 24): its
 * sandbox-wide advance, snapshot, restore and reset work as ever, and the first of them warns,
 * through `process.emitWarning`, that it reaches every test sharing the sandbox.
 */
export function sharedControl(control: ControlClient): ControlClient {
  const warn = (operation: string) => {
    if (warned) return
    warned = true
    process.emitWarning(WARNING.replace('%s', operation), { code: 'WALLET_SANDBOX_SHARED' })
  }
  const unscoped = (scope: { api_key?: string; account_id?: string } | undefined) => scope?.api_key === undefined && scope?.account_id === undefined
  return {
    ...control,
    advanceClock(ms, scope) {
      if (unscoped(scope)) warn('clock advance')
      return control.advanceClock(ms, scope)
    },
    snapshot(scope) {
      if (unscoped(scope)) warn('snapshot')
      return control.snapshot(scope)
    },
    restore(snapshot) {
      if (snapshot.account_id === undefined) warn('restore')
      return control.restore(snapshot)
    },
    reset(options) {
      if (unscoped(options)) warn('reset')
      return control.reset(options)
    },
  }
}

// The arrows that must not exist (docs/architecture.md). Checked by test/unit/dependency-rules.test.ts,
// so `npm test` fails on a new one. Type-only imports count: a type cycle is still a cycle.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No import cycle between files (the folder-level check is in the same test).',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'http-not-to-store',
      severity: 'error',
      comment: 'The HTTP kit and the API surfaces ask the ledger; only the ledger changes state.',
      // No exception: the idempotency middleware keeps its records through the ledger
      // (src/ledger/idempotency-records.ts), control handlers change state through SandboxControl.
      from: { path: '^src/(http|api)/' },
      to: { path: '^src/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'http-not-to-store-types',
      severity: 'error',
      comment: 'Not even the store\'s types: a handler that names them is one step from using them.',
      from: {
        path: '^src/(http|api)/',
        // Known exceptions: AppDeps still carries the store; and two control handlers (accounts,
        // payments) name the account container they read and hand to the ledger or SandboxControl (they change nothing themselves since the store took change sets).
        // No other file may join them.
        pathNot: [
          '^src/http/context[.]ts$',
          '^src/api/sandbox/(accounts|payments)[.]ts$',
        ],
      },
      to: { path: '^src/store/', dependencyTypes: ['type-only'] },
    },
    {
      name: 'schemas-not-to-http',
      severity: 'error',
      comment: 'Schemas describe the wire; they know nothing of express, routes or middleware.',
      from: { path: '^src/schemas/' },
      to: { path: '^src/(http|api)/' },
    },
    {
      name: 'model-to-nothing',
      severity: 'error',
      comment: 'The model is plain types and constants every layer shares; it depends on nothing.',
      from: { path: '^src/model/' },
      to: { path: '^src/', pathNot: '^src/model/' },
    },
    {
      name: 'store-not-to-ledger',
      severity: 'error',
      comment: 'The store keeps what it is given; the rules about it live above it.',
      from: { path: '^src/store/' },
      to: { path: '^src/(ledger|lifecycle|control)/' },
    },
    {
      name: 'ledger-not-to-delivery',
      severity: 'error',
      comment: 'The ledger emits events into the outbox; who listens (HTTP, stream, webhook delivery) is not its business.',
      from: { path: '^src/ledger/' },
      to: { path: ['^src/(http|api|stream)/', '^src/events/(webhooks|webhook-http|webhook-response|webhook-target|delivery-log|signing|retry-schedule)[.]ts$'] },
    },
    {
      name: 'clients-are-clients',
      severity: 'error',
      comment: 'The control client, the receivers and the terminal commands reach a sandbox over HTTP only, like a user\'s code: none of its inside (the schemas\' types and the model\'s names are the wire\'s).',
      from: { path: '^src/(client|cli/terminal)/' },
      to: { path: '^src/(store|ledger|lifecycle|control|http|api|stream|events|market|access)/' },
    },
    {
      name: 'nothing-imports-the-face',
      severity: 'error',
      comment: 'The command line (src/cli/) stands on top: it uses the wiring, config and client; nothing below reaches up into it (the library entry starts sandboxes without it).',
      from: { path: '^src/', pathNot: '^src/cli/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'parity-is-a-client',
      comment: 'parity and record compare the sandbox with a hosted one over HTTP, as a user\'s code would: the hosted side is just another URL, so nothing of the server\'s inside may take part in the comparison. (src/parity/local-sandbox.ts starts a local sandbox through src/sandbox.ts, as exec does.)',
      severity: 'error',
      from: { path: '^src/parity/' },
      to: { path: '^src/(store|ledger|lifecycle|control|http|api|stream|events|market|access)/' },
    },
    {
      name: 'client-only-types-of-schemas',
      severity: 'error',
      comment: 'A client carries no server code: from the schemas it takes types only.',
      from: { path: '^src/client/' },
      to: { path: '^src/schemas/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'stream-not-to-http',
      severity: 'error',
      comment: 'What the stream shares with HTTP (keys, scopes, IP rules) lives in src/access/.',
      from: { path: '^src/stream/' },
      to: { path: '^src/(http|api)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
  },
}

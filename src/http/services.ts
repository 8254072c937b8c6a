import type { Request, Response } from 'express'
import type { RequestJournal } from '../control/request-journal.js'
import type { Rng } from '../rng.js'
import type { Faults } from './middleware/faults.js'
import type { Idempotency } from './middleware/idempotency.js'
import type { RateLimiter } from './middleware/rate-limit.js'
import type { SignatureChecks } from './middleware/signature.js'

/** Request-scoped machinery the pipeline needs besides the ledger. */
export interface HttpServices {
  limiter: RateLimiter | undefined
  /** Request signing (`POST /_sandbox/keys` with `signing`, `--signing-secret`); checked before the rate limit. */
  signatures?: SignatureChecks
  idempotency: Idempotency
  /** Request ids (`req_…`) before a request is known to be an account's, and of the requests of no account. */
  requestIds: Rng
  /** An account's request ids, from its own generator: its answers are the same bytes whatever other accounts do. */
  accountRequestIds: (accountId: string) => Rng
  checkControlToken(header: string | undefined): void
  logError(error: unknown): void
  /** Injected faults (`--latency`, `--error-rate`, `/_sandbox/faults`), between idempotency and validation. */
  faults?: Faults
  /** Called once per answered request, for the request log. */
  onResponse?: (req: Request, res: Response, ctx: { requestId: string; durationMs: number }) => void
  /** Keeps recent `/v1` requests for `GET /_sandbox/requests`, answered or not. */
  journal?: RequestJournal
}

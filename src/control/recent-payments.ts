import type { Bus } from '../events/bus.js'

/** How many payments each generation remembers: the newest 4,096 to 8,192 are found without a walk. */
const GENERATION = 4096

/**
 * Which account the latest payments made belong to (from their `payment.created` events), so that
 * a control call on a payment (`POST /_sandbox/payments/{id}/complete`, most often on one just
 * made) finds it without asking every account: a payment id says nothing of its account, and that
 * walk hashed the id once per account (a suite that makes an account per test file has hundreds).
 * A hint only: the caller checks that the account still holds the payment (a reset or restore may
 * have replaced it) and walks the accounts when it does not. Two generations of a map, the older
 * dropped whole: bounded, and nothing is ever deleted one entry at a time.
 */
export class RecentPayments {
  private current = new Map<string, string>()
  private previous = new Map<string, string>()

  /** `accounts`: how many accounts the sandbox holds. */
  constructor(bus: Bus, accounts: () => number = () => Infinity) {
    bus.on('event', (event) => {
      // A payment's later events name the same account: one note per payment. With one account there
      // is no walk to save (the caller asks it first), and a note was a map entry made for every payment.
      if (event.type === 'payment.created' && accounts() > 1) this.note((event.data.object as { id: string }).id, event.account_id)
    })
  }

  /** The account id of the payment, if it is one of the latest made. */
  accountOf(paymentId: string): string | undefined {
    return this.current.get(paymentId) ?? this.previous.get(paymentId)
  }

  private note(paymentId: string, accountId: string): void {
    if (this.current.size === GENERATION) {
      this.previous = this.current
      this.current = new Map()
    }
    this.current.set(paymentId, accountId)
  }
}

import { describeAddressFormat, generateTxHash, isValidAddress } from '../chain/networks.js'
import type { Clock } from '../clock.js'
import { ApiError, echoId, notFound } from '../errors.js'
import type { Publisher } from '../events/publisher.js'
import { newId } from '../ids.js'
import { amountText, formatAmount } from '../money.js'
import type { PaymentFilter } from '../store/payment-index.js'
import type { PresentedPayment } from '../payment-json.js'
import type { Metadata, PaymentRecord, PaymentStatus, WalletRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { put, type Change } from '../store/changes.js'
import type { Store } from '../store/store.js'
import { lock, release, settle } from './balances.js'
import { FAILURE_MESSAGES, type FailureCode } from '../model/failures.js'
import { decimalsOf, presentBalance, presentPayment } from './present.js'
import { parseAmountFor } from './wallets.js'
import { assertWhitelisted } from './whitelist.js'

export interface CreatePaymentInput {
  amount: string
  currency: string
  source_wallet: string
  recipient: string
  description?: string | null
  metadata: Metadata
  payout_id?: string | null
}

export type PaymentService = ReturnType<typeof createPaymentService>

/** What the checks found: the wallets involved and the amount in base units. */
export interface CheckedPayment {
  source: WalletRecord
  destination: WalletRecord | undefined
  units: bigint
}

export function createPaymentService(deps: {
  store: Store
  clock: Clock
  publisher: Publisher
  whitelistEnforced: boolean
  /** Runs after every status change, once its event is out (bulk payouts follow their items here). */
  onTransition?: (account: AccountState, payment: PaymentRecord) => void
}) {
  const { store, clock, publisher } = deps

  function get(account: AccountState, id: string): PaymentRecord {
    const payment = account.payments.get(id)
    if (!payment) throw notFound('payment', id)
    return payment
  }

  /** Runs every check of CONTRACT.md section 5, in order, without changing anything. */
  function check(account: AccountState, input: CreatePaymentInput): CheckedPayment {
    const source = account.wallets.get(input.source_wallet)
    if (!source) throw notFound('wallet', input.source_wallet, 'source_wallet')
    if (input.currency !== source.currency) {
      throw new ApiError('parameter_invalid', `currency ${input.currency} does not match the source wallet ${source.id}, which holds ${source.currency}.`, { param: 'currency' })
    }
    const units = parseAmountFor(input.amount, decimalsOf(source), source)
    if (units <= 0n) throw new ApiError('parameter_invalid', 'amount must be greater than zero.', { param: 'amount' })

    let destination: WalletRecord | undefined
    if (input.recipient.startsWith('wal_')) {
      destination = account.wallets.get(input.recipient)
      if (!destination) throw notFound('wallet', input.recipient, 'recipient')
      if (destination.id === source.id) throw new ApiError('parameter_invalid', 'recipient is the source wallet; a wallet cannot pay itself.', { param: 'recipient' })
      if (destination.network !== source.network || destination.currency !== source.currency) {
        throw new ApiError(
          'parameter_invalid',
          `recipient ${destination.id} holds ${destination.currency} on ${destination.network}; an internal payment needs a wallet of ${source.currency} on ${source.network}.`,
          { param: 'recipient' },
        )
      }
    } else if (!isValidAddress(source.network, input.recipient)) {
      throw new ApiError('parameter_invalid', `recipient must be a wal_ wallet id or ${describeAddressFormat(source.network)}; '${echoId(input.recipient)}' is not.`, { param: 'recipient' })
    }

    if (source.status !== 'active') throw new ApiError('wallet_inactive', `The source wallet ${source.id} is ${source.status} and cannot send funds.`, { param: 'source_wallet' })
    if (destination && destination.status !== 'active') {
      throw new ApiError('wallet_inactive', `The recipient wallet ${destination.id} is ${destination.status} and cannot receive funds.`, { param: 'recipient' })
    }
    if (!destination) assertWhitelisted(account, source.network, input.recipient, deps.whitelistEnforced, 'recipient')
    if (source.available < units) {
      const decimals = decimalsOf(source)
      throw new ApiError(
        'insufficient_funds',
        `Wallet ${source.id} has ${formatAmount(source.available, decimals)} ${source.currency} available; ${formatAmount(units, decimals)} requested.`,
        { param: 'amount' },
      )
    }
    return { source, destination, units }
  }

  /**
   * Status change plus its balance effects (`wallets`: copies with the new balances; `postings`: the
   * transaction that moved them), the event and the wallet notifications. One change set: the
   * payment, its wallets and their postings change (and are journaled) together. Answers the payment
   * as its event carries it: a control call answers that, whose JSON is then written once for both.
   */
  function transition(account: AccountState, payment: PaymentRecord, to: PaymentStatus, fields: Partial<PaymentRecord>, wallets: WalletRecord[] = [], postings: Change[] = []): PresentedPayment {
    const id = account.account.id
    store.apply([
      ...wallets.map((wallet) => put('wallet', id, wallet.id, wallet)),
      ...postings,
      put('payment', id, payment.id, { ...payment, ...fields, status: to, updated_at: clock.nowIso(account.account.id) }),
    ])
    const type = to === 'processing' ? 'payment.processing' : to === 'completed' ? 'payment.succeeded' : 'payment.failed'
    notify(account, payment, balancesMovedBy(payment, to))
    const presented = presentPayment(payment)
    publisher.event(account, type, presented)
    deps.onTransition?.(account, payment)
    return presented
  }

  /** `payment.updated` to both wallets of the payment; `balance.updated` only to those whose balance moved. */
  function notify(account: AccountState, payment: PaymentRecord, balancesMoved: readonly string[]) {
    // Nobody subscribed (every sandbox without a stream client): not even the lists and closures below.
    if (!publisher.wantsWalletNotifications()) return
    const wallets = [payment.source, ...(payment.destination_type === 'wallet' ? [payment.destination] : [])]
    for (const id of wallets) {
      const wallet = account.wallets.get(id)
      if (!wallet) continue
      publisher.wallet(account, id, 'payment.updated', () => presentPayment(payment))
      if (balancesMoved.includes(id)) publisher.wallet(account, id, 'balance.updated', () => presentBalance(wallet))
    }
  }

  function assertNotFinal(payment: PaymentRecord, action: string) {
    if (payment.status === 'completed' || payment.status === 'failed') {
      throw new ApiError('invalid_state_transition', `Payment ${payment.id} is ${payment.status}, which is final; it cannot ${action}.`)
    }
  }

  /** Checks and stores a payment (not announced yet). */
  function open(account: AccountState, input: CreatePaymentInput): PaymentRecord {
    const checked = check(account, input)
    const changes: Change[] = []
    const payment = service.insert(account, input, checked, changes)
    store.apply(changes)
    return payment
  }

  const service = {
    get,
    check,

    create(account: AccountState, input: CreatePaymentInput): PaymentRecord {
      const payment = open(account, input)
      service.announce(account, payment)
      return payment
    },

    /** `create`, as the API answers it: the presentation its `payment.created` event carries, whose JSON is written once for both. */
    createPresented(account: AccountState, input: CreatePaymentInput): PresentedPayment {
      return service.announce(account, open(account, input))
    },

    /**
     * Adds to `changes` a checked payment and the lock of its amount (unless a bulk payout locked its
     * items' total in one transaction already); apply them, then `announce` once the whole change is
     * in (a bulk payout inserts all its items first, so `source` is the wallet as the previous items
     * left it).
     */
    insert(account: AccountState, input: CreatePaymentInput, checked: CheckedPayment, changes: Change[], locks = true): PaymentRecord {
      const { destination, units } = checked
      const now = clock.nowIso(account.account.id)
      const source = { ...checked.source }
      const record: PaymentRecord = {
        id: newId('pay', account.rng),
        seq: account.payments.nextSeq(),
        amount_units: units,
        // The text the client sent when it is the one the API writes (the units were read from it).
        amount: amountText(input.amount, units, decimalsOf(source)),
        currency: source.currency,
        network: source.network,
        status: 'pending',
        source: source.id,
        destination: destination ? destination.id : input.recipient,
        destination_type: destination ? 'wallet' : 'address',
        description: input.description ?? null,
        metadata: input.metadata,
        tx_hash: null,
        failure_code: null,
        failure_message: null,
        payout_id: input.payout_id ?? null,
        created_at: now,
        updated_at: now,
        completed_at: null,
        plan: null,
      }
      if (locks) lock(account, source, units, { cause: 'payment.created', ref: record.id, at: clock.now(account.account.id) }, changes)
      source.updated_at = now
      checked.source = source
      changes.push(put('wallet', account.account.id, source.id, source), put('payment', account.account.id, record.id, record))
      return record
    },

    /** `payment.created` and the wallet notifications of an inserted payment; answers the payment as the event carries it. */
    announce(account: AccountState, payment: PaymentRecord): PresentedPayment {
      notify(account, payment, balancesMovedBy(payment, 'pending'))
      const presented = presentPayment(payment)
      publisher.event(account, 'payment.created', presented)
      return presented
    },

    list(account: AccountState, filter: PaymentFilter, offset: number, limit: number) {
      return account.payments.list(filter, offset, limit)
    },

    /** pending → processing. */
    process(account: AccountState, payment: PaymentRecord): PresentedPayment {
      assertNotFinal(payment, 'be processed')
      if (payment.status !== 'pending') throw new ApiError('invalid_state_transition', `Payment ${payment.id} is already processing.`)
      return transition(account, payment, 'processing', {})
    },

    /** (pending →) processing → completed: the amount leaves the source and, if internal, lands in the recipient. */
    complete(account: AccountState, payment: PaymentRecord): PresentedPayment {
      assertNotFinal(payment, 'be completed')
      if (payment.status === 'pending') service.process(account, payment)
      const now = clock.nowIso(account.account.id)
      const source = { ...account.wallets.get(payment.source)!, updated_at: now }
      const target = payment.destination_type === 'wallet' ? account.wallets.get(payment.destination) : undefined
      const destination = target && { ...target, updated_at: now }
      const postings: Change[] = []
      settle(account, source, payment.amount_units, destination, { cause: 'payment.completed', ref: payment.id, at: clock.now(account.account.id) }, postings)
      return transition(account, payment, 'completed', { tx_hash: generateTxHash(payment.network, account.rng), completed_at: now }, destination ? [source, destination] : [source], postings)
    },

    /** pending | processing → failed: the amount returns to the source's available balance. */
    fail(account: AccountState, payment: PaymentRecord, code: FailureCode | string, message?: string): PresentedPayment {
      assertNotFinal(payment, 'fail')
      const source = { ...account.wallets.get(payment.source)!, updated_at: clock.nowIso(account.account.id) }
      const postings: Change[] = []
      release(account, source, payment.amount_units, { cause: 'payment.failed', ref: payment.id, at: clock.now(account.account.id) }, postings)
      const failure_message = message ?? FAILURE_MESSAGES[code as FailureCode] ?? `The payment failed (${code}).`
      return transition(account, payment, 'failed', { failure_code: code, failure_message }, [source], postings)
    },
  }
  return service
}

/**
 * The wallets whose balances a payment's step moves (CONTRACT.md section 5): creation locks in the
 * source; completion takes from the source's locked balance and credits an internal recipient;
 * failure unlocks in the source; processing moves nothing.
 */
function balancesMovedBy(payment: PaymentRecord, to: PaymentStatus): string[] {
  if (to === 'processing') return []
  if (to === 'completed' && payment.destination_type === 'wallet') return [payment.source, payment.destination]
  return [payment.source]
}

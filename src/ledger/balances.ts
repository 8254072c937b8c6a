import { externalAccount, feeAccount, isAsset, openingBalanceLines, parseAccount, tradingAccount, walletAccount, type Bucket } from '../model/ledger-accounts.js'
import type { Cause, PostingLine } from '../model/postings.js'
import type { WalletRecord } from '../model/records.js'
import type { AccountState } from '../store/account-state.js'
import { appendPostings, type Change } from '../store/changes.js'
import { PostedTransaction } from '../store/postings-data.js'
import { boundedCache } from '../bounded-cache.js'

/**
 * The only functions that move money (CONTRACT.md section 5, ARCHITECTURE.md "Money"). Each checks
 * one balanced transaction, sets the new `available`/`locked` (a cache of the postings) on the
 * wallet copies the caller is about to put, and adds the transaction's append to the account's
 * postings log to the caller's change set: the balances and their postings are journaled together.
 * Money enters and leaves the sandbox only through the external account of its network and currency.
 */

/** Why money moved: the transaction's cause, what it refers to, and its sandbox time (ms). */
export interface Reason {
  cause: Cause
  ref: string
  at: number
}

/**
 * Checks the whole transaction first (known accounts, non-zero lines, a zero sum per asset, no
 * wallet balance below zero), then updates `wallets` (copies, not the stored records) and pushes
 * the append onto `changes`: all or nothing. A wallet line must name one of `wallets`. The callers
 * have checked balances already, so a refusal is a bug and throws a plain RangeError (a 500).
 */
export function post(account: AccountState, reason: Reason, lines: readonly PostingLine[], wallets: readonly WalletRecord[], changes: Change[]): void {
  // A transaction has a handful of lines on two or three assets: short arrays searched in order
  // cost less than maps keyed by strings built for the purpose, and keep the same order. An asset is
  // its network and currency compared as they are: a `network:currency` text and a resolved
  // account object made for every line were most of what a payment's lock allocated.
  const sums: AssetSum[] = []
  const touched: Touched[] = []
  for (let i = 0; i < lines.length; i++) {
    const { account: name, amount } = lines[i]!
    const parsed = parseAccount(name)
    let wallet: WalletRecord | undefined
    let network: string
    let currency: string
    if (parsed === undefined) throw refusal(reason, `no ledger account ${name}`)
    if (parsed.kind === 'wallet') {
      wallet = walletIn(wallets, parsed.walletId)
      if (wallet === undefined) throw refusal(reason, `no ledger account ${name}`)
      network = wallet.network
      currency = wallet.currency
    } else {
      if (!isAsset(parsed.network, parsed.currency)) throw refusal(reason, `no ledger account ${name}`)
      network = parsed.network
      currency = parsed.currency
    }
    if (amount === 0n) throw refusal(reason, `a posting of zero on ${name}`)
    addToSum(sums, network, currency, amount)
    if (wallet === undefined || parsed.kind !== 'wallet') continue
    const entry = touchedAs(touched, name)
    if (entry) entry.units += amount
    else touched.push({ name, wallet, bucket: parsed.bucket, units: wallet[parsed.bucket] + amount })
  }
  for (const { network, currency, sum } of sums) if (sum !== 0n) throw refusal(reason, `${network}:${currency} sums to ${sum}, not zero`)
  for (const { name, units } of touched) if (units < 0n) throw refusal(reason, `${name} would fall to ${units}`)

  changes.push(appendPostings(account, changes, new PostedTransaction(reason.cause, reason.ref, reason.at, lines)))
  for (const { wallet, bucket, units } of touched) wallet[bucket] = units
}

/** One asset's running sum in a transaction being checked. */
interface AssetSum {
  network: string
  currency: string
  sum: bigint
}

/** A wallet balance a transaction moves, and what it will be. */
interface Touched {
  name: string
  wallet: WalletRecord
  bucket: Bucket
  units: bigint
}

function walletIn(wallets: readonly WalletRecord[], id: string): WalletRecord | undefined {
  for (let i = 0; i < wallets.length; i++) if (wallets[i]!.id === id) return wallets[i]
  return undefined
}

function addToSum(sums: AssetSum[], network: string, currency: string, amount: bigint): void {
  for (let i = 0; i < sums.length; i++) {
    const entry = sums[i]!
    if (entry.network === network && entry.currency === currency) {
      entry.sum += amount
      return
    }
  }
  sums.push({ network, currency, sum: amount })
}

function touchedAs(touched: Touched[], name: string): Touched | undefined {
  for (let i = 0; i < touched.length; i++) if (touched[i]!.name === name) return touched[i]
  return undefined
}

const refusal = (reason: Reason, problem: string) => new RangeError(`${reason.cause} ${reason.ref}: ${problem}`)

function transfer(account: AccountState, reason: Reason, from: string, to: string, units: bigint, wallets: readonly WalletRecord[], changes: Change[]): void {
  post(
    account,
    reason,
    [
      { account: from, amount: -units },
      { account: to, amount: units },
    ],
    wallets,
    changes,
  )
}

/**
 * A wallet's two ledger account names, made once per wallet rather than on every posting: a name
 * made anew was a new string for each line, and hashed anew to look it up (parseAccount, the
 * postings log's names).
 */
const walletAccounts = boundedCache(4096, (walletId: string) => ({ available: walletAccount(walletId, 'available'), locked: walletAccount(walletId, 'locked') }))
const available = (wallet: WalletRecord) => walletAccounts(wallet.id).available
const locked = (wallet: WalletRecord) => walletAccounts(wallet.id).locked
const outside = (wallet: WalletRecord) => externalAccount(wallet.network, wallet.currency)

/**
 * A seeded wallet's balance: it comes from outside the sandbox. The account is being built and not
 * in the store yet, so the transaction goes straight into its log; the account's put carries it.
 * Not through `post`: its two lines (the network's external account and the new wallet's available
 * balance, which starts at zero) balance by construction, and `post` checked them by parsing both
 * names back and then made a change set nobody read; every start seeds 14 of them (issue 33).
 */
export function openBalance(account: AccountState, wallet: WalletRecord, units: bigint, at: number): void {
  if (units === 0n) return
  if (units < 0n || wallet.available !== 0n || wallet.locked !== 0n) throw refusal({ cause: 'opening_balance', ref: wallet.id, at }, `an opening balance of ${units} on a wallet holding ${wallet.available} available, ${wallet.locked} locked`)
  account.postings.append('opening_balance', wallet.id, at, openingBalanceLines(wallet, { available: units, locked: 0n }))
  wallet.available = units
}

/** Funds arriving from outside (control API deposit); `from` is the sending address. `wallet` is a copy to put. */
export function deposit(account: AccountState, wallet: WalletRecord, units: bigint, from: string, at: number, changes: Change[]): void {
  transfer(account, { cause: 'deposit', ref: from, at }, outside(wallet), available(wallet), units, [wallet], changes)
}

/** Payment (or whole payout) created: available → locked. Callers check `available` first. `wallet` is a copy to put. */
export function lock(account: AccountState, wallet: WalletRecord, units: bigint, reason: Reason, changes: Change[]): void {
  shift(account, reason, wallet, 'available', 'locked', units, changes)
}

/** Payment failed: locked → available. */
export function release(account: AccountState, wallet: WalletRecord, units: bigint, reason: Reason, changes: Change[]): void {
  shift(account, reason, wallet, 'locked', 'available', units, changes)
}

/**
 * `units` from one of a wallet's balances to its other (a lock, a release): `post`'s transaction
 * with `post`'s checks, the same refusals in the same order, but the two lines are known before
 * they are written: both name this wallet's accounts, in its asset, so they balance by
 * construction. `post` parsed both names back, searched the wallet by id and built its lists of
 * sums and touched balances to find that out, on every payment (issue 33, round 8).
 */
function shift(account: AccountState, reason: Reason, wallet: WalletRecord, from: Bucket, to: Bucket, units: bigint, changes: Change[]): void {
  const names = walletAccounts(wallet.id)
  if (units === 0n) throw refusal(reason, `a posting of zero on ${names[from]}`)
  const left = wallet[from] - units
  const reached = wallet[to] + units
  if (left < 0n) throw refusal(reason, `${names[from]} would fall to ${left}`)
  if (reached < 0n) throw refusal(reason, `${names[to]} would fall to ${reached}`)
  const lines: PostingLine[] = [
    { account: names[from], amount: -units },
    { account: names[to], amount: units },
  ]
  changes.push(appendPostings(account, changes, new PostedTransaction(reason.cause, reason.ref, reason.at, lines)))
  wallet[from] = left
  wallet[to] = reached
}

/** Payment completed: locked → the recipient wallet's available, or out of the sandbox to an address. */
export function settle(account: AccountState, source: WalletRecord, units: bigint, recipient: WalletRecord | undefined, reason: Reason, changes: Change[]): void {
  transfer(account, reason, locked(source), recipient ? available(recipient) : outside(source), units, recipient ? [source, recipient] : [source], changes)
}

/** One fill of an order, in base units of its wallets (CONTRACT.md section 15). */
export interface FillMovement {
  /** The wallet that gives (the quote wallet of a buy, the base wallet of a sell): from its locked balance. */
  payer: WalletRecord
  /** Leaves the payer's locked balance for the trading desk (a buy's fee not included). */
  paid: bigint
  /** The wallet that gets the other currency, into its available balance. */
  receiver: WalletRecord
  /** Arrives from the trading desk before the fee (a sell's fee is taken out of it). */
  received: bigint
  /** The taker fee, in the quote currency: on top of `paid` for a buy, out of `received` for a sell. */
  fee: bigint
  side: 'buy' | 'sell'
}

/**
 * An order's fill: the payer's locked funds go to the trading desk of their currency, the desk of
 * the other currency pays the receiver, and the fee goes to the fee account of the quote
 * currency. Each currency balances on its own. `payer` and `receiver` are copies to put.
 */
export function fill(account: AccountState, reason: Reason, movement: FillMovement, changes: Change[]): void {
  const { payer, paid, receiver, received, fee, side } = movement
  const quoteWallet = side === 'buy' ? payer : receiver
  const lines: PostingLine[] = [
    { account: locked(payer), amount: -(paid + (side === 'buy' ? fee : 0n)) },
    { account: tradingAccount(payer.network, payer.currency), amount: paid },
    { account: tradingAccount(receiver.network, receiver.currency), amount: -received },
    { account: available(receiver), amount: received - (side === 'sell' ? fee : 0n) },
    { account: feeAccount(quoteWallet.network, quoteWallet.currency), amount: fee },
  ]
  post(account, reason, lines.filter((line) => line.amount !== 0n), [payer, receiver], changes)
}

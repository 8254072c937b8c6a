/** Failure codes of a payment (CONTRACT.md section 8), each with the message a user sees. */
export const FAILURE_MESSAGES = {
  screening_rejected: 'The recipient address was flagged by transaction screening; the payment was not broadcast.',
  network_congestion: 'The network was congested and the transaction was dropped before confirmation; retry the payment.',
  insufficient_network_fee: 'The network fee offered was too low for the transaction to be included; retry the payment.',
  recipient_rejected: 'The recipient rejected the transfer.',
  internal_error: 'The payment failed because of an internal error; retry the payment.',
} as const

export type FailureCode = keyof typeof FAILURE_MESSAGES
export const FAILURE_CODES = Object.keys(FAILURE_MESSAGES) as FailureCode[]
export const DEFAULT_FAILURE_CODE: FailureCode = 'network_congestion'

/**
 * Failure codes of a settlement (CONTRACT.md section 16), each with the message a user sees; the
 * ledger adds whether the funds were released or are being refunded.
 */
export const SETTLEMENT_FAILURE_MESSAGES = {
  screening_rejected: 'The destination address was flagged by transaction screening.',
  compliance_rejected: 'The settlement was rejected by the compliance review.',
  conversion_failed: 'The currency conversion could not be executed.',
  bridge_failed: 'The bridge to the destination network failed.',
  transfer_failed: 'The final transfer failed.',
  beneficiary_account_closed: 'The beneficiary bank account is closed; the payout was returned.',
  beneficiary_name_mismatch: 'The beneficiary name does not match the account holder; the payout was returned.',
  network_congestion: 'The network was congested and the transfer was dropped.',
  internal_error: 'The settlement failed because of an internal error.',
} as const

export type SettlementFailureCode = keyof typeof SETTLEMENT_FAILURE_MESSAGES
export const SETTLEMENT_FAILURE_CODES = Object.keys(SETTLEMENT_FAILURE_MESSAGES) as SettlementFailureCode[]

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

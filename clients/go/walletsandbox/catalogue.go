package walletsandbox

// Event types: an Event's Type, what EventFilter.Type and WebhookReceiver.WaitFor select (besides
// a resource's, payment.*), and what a webhook endpoint subscribes to. These are every type the
// sandbox sends; catalogue_test.go checks them against its OpenAPI document.
const (
	EventPaymentCreated    = "payment.created"
	EventPaymentProcessing = "payment.processing"
	EventPaymentSucceeded  = "payment.succeeded"
	EventPaymentFailed     = "payment.failed"

	EventPayoutCreated         = "payout.created"
	EventPayoutCompleted       = "payout.completed"
	EventPayoutFailed          = "payout.failed"
	EventPayoutPartiallyFailed = "payout.partially_failed"

	EventOrderCreated         = "order.created"
	EventOrderPartiallyFilled = "order.partially_filled"
	EventOrderFilled          = "order.filled"
	EventOrderCancelled       = "order.cancelled"
	EventOrderExpired         = "order.expired"
	EventOrderRejected        = "order.rejected"

	EventSettlementCreated       = "settlement.created"
	EventSettlementProcessing    = "settlement.processing"
	EventSettlementStepCompleted = "settlement.step_completed"
	EventSettlementCompleted     = "settlement.completed"
	EventSettlementFailed        = "settlement.failed"
	EventSettlementRefunded      = "settlement.refunded"
)

// Failure codes of payments: a Payment's FailureCode, and the Code of the Failure that
// FailPayment gives.
const (
	FailureScreeningRejected      = "screening_rejected"
	FailureNetworkCongestion      = "network_congestion" // the sandbox's choice for the zero Failure
	FailureInsufficientNetworkFee = "insufficient_network_fee"
	FailureRecipientRejected      = "recipient_rejected"
	FailureInternalError          = "internal_error"
)

// Failure codes of settlements, besides FailureScreeningRejected, FailureNetworkCongestion and
// FailureInternalError, which a settlement can fail with too.
const (
	FailureComplianceRejected       = "compliance_rejected"
	FailureConversionFailed         = "conversion_failed"
	FailureBridgeFailed             = "bridge_failed"
	FailureTransferFailed           = "transfer_failed"
	FailureBeneficiaryAccountClosed = "beneficiary_account_closed"
	FailureBeneficiaryNameMismatch  = "beneficiary_name_mismatch"
)

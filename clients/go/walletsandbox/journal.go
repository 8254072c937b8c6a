package walletsandbox

import (
	"encoding/json"
	"time"
)

// Request is one /v1 request of an account as the sandbox's request journal keeps it
// (GET /_sandbox/requests, CONTRACT.md section 23): what the code under test sent and what it got.
type Request struct {
	// ID is the X-Request-Id of the answer; an idempotent replay has its first request's.
	ID     string
	Method string
	Path   string
	// Query is the query string without "?" ("" when there was none), api_key values masked.
	Query string
	// Status is the answer's status code, 0 when no answer was sent (the connection was dropped,
	// held, or the client went away).
	Status   int
	Duration time.Duration
	// APIKey is the key sent, masked as sk_test_…_key.
	APIKey         string
	AccountID      string
	IdempotencyKey string
	// Headers are the request's headers, names in lower case, secrets masked.
	Headers map[string]string
	// Replayed is true for an answer replayed from an earlier request with the same Idempotency-Key.
	Replayed bool
	// Fault is the injected fault that decided the answer (commit_then_drop, say), "" for none.
	Fault string
	// At is when the request came, on its account's clock.
	At time.Time
	// RequestBody and ResponseBody are the bodies as sent, their first 64 KB ("" for none);
	// Truncated says one of them, or the headers, was cut.
	RequestBody  string
	ResponseBody string
	Truncated    bool
}

// UnmarshalJSON reads a journal entry: {id, method, path, query, status, duration_ms, api_key,
// account_id, idempotency_key, headers, replayed, fault, at, request_body, response_body,
// truncated}, its nulls as zero values.
func (r *Request) UnmarshalJSON(data []byte) error {
	var wire struct {
		ID             string            `json:"id"`
		Method         string            `json:"method"`
		Path           string            `json:"path"`
		Query          *string           `json:"query"`
		Status         *int              `json:"status"`
		DurationMS     float64           `json:"duration_ms"`
		APIKey         *string           `json:"api_key"`
		AccountID      *string           `json:"account_id"`
		IdempotencyKey *string           `json:"idempotency_key"`
		Headers        map[string]string `json:"headers"`
		Replayed       bool              `json:"replayed"`
		Fault          *string           `json:"fault"`
		At             time.Time         `json:"at"`
		RequestBody    *string           `json:"request_body"`
		ResponseBody   *string           `json:"response_body"`
		Truncated      bool              `json:"truncated"`
	}
	if err := json.Unmarshal(data, &wire); err != nil {
		return err
	}
	*r = Request{
		ID: wire.ID, Method: wire.Method, Path: wire.Path, Query: orEmpty(wire.Query),
		Duration: time.Duration(wire.DurationMS * float64(time.Millisecond)),
		APIKey:   orEmpty(wire.APIKey), AccountID: orEmpty(wire.AccountID), IdempotencyKey: orEmpty(wire.IdempotencyKey),
		Headers: wire.Headers, Replayed: wire.Replayed, Fault: orEmpty(wire.Fault), At: wire.At,
		RequestBody: orEmpty(wire.RequestBody), ResponseBody: orEmpty(wire.ResponseBody), Truncated: wire.Truncated,
	}
	if wire.Status != nil {
		r.Status = *wire.Status
	}
	return nil
}

// orEmpty is the string a nullable JSON string holds, "" for null.
func orEmpty(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

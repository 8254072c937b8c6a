package walletsandbox

import (
	"context"
	"net/http"
	"time"
)

// Fault is a fault rule for an account's /v1 requests (docs/faults.md): it makes matching requests
// slow, fail, or lose their connection, so that a test sees how the code under test retries.
type Fault struct {
	// Kind is "latency", "error" (a 503, or Status 500), "drop" (the connection closes before the
	// request is handled), "commit_then_drop" (the request is handled in full, then the connection
	// closes without an answer: a retry with its Idempotency-Key gets the kept answer) or "timeout".
	Kind string
	// Method and Path select the requests ("" for any): the path exact, or a prefix ending in *.
	Method string
	Path   string
	// Status is an error's status, 503 (0) or 500.
	Status int
	// Latency is how long a matching request waits first, in whole milliseconds (a latency fault
	// needs it).
	Latency time.Duration
	// Times is how many requests the rule fires on, 0 for every one.
	Times int
}

// AddFault adds a fault rule for the account's requests alone, with any of its keys (POST
// /_sandbox/faults with the account's key), and answers its id (flt_…). The account's Reset
// removes its rules.
func (a *Account) AddFault(ctx context.Context, f Fault) (string, error) {
	type match struct {
		Method string `json:"method,omitempty"`
		Path   string `json:"path,omitempty"`
	}
	body := struct {
		Match     match  `json:"match"`
		Fault     string `json:"fault"`
		Status    int    `json:"status,omitempty"`
		LatencyMS int64  `json:"latency_ms,omitempty"`
		Times     int    `json:"times,omitempty"`
		APIKey    string `json:"api_key"`
	}{match{f.Method, f.Path}, f.Kind, f.Status, f.Latency.Milliseconds(), f.Times, a.Key}
	var rule struct {
		ID string `json:"id"`
	}
	err := a.sandbox.control(ctx, http.MethodPost, "/_sandbox/faults", body, &rule)
	return rule.ID, err
}

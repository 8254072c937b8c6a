package walletsandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// Delivery is one request the receiver got, verified or not.
type Delivery struct {
	// Event is the parsed body (the zero Event when the body is not JSON).
	Event  Event
	Body   []byte
	Header http.Header
	// Verified says whether the signature verified: the receiver answered 200 if so, 400 if not.
	Verified bool
	// Err is why it did not verify.
	Err error
}

// WebhookReceiver is a local HTTP server (an httptest.Server) that receives webhook deliveries
// and verifies every one with VerifyWebhook: a delivery that does not verify is answered 400 with
// the reason, recorded, and never returned by WaitFor.
type WebhookReceiver struct {
	// URL is where to point a webhook endpoint: http://127.0.0.1:PORT/webhooks.
	URL string

	server   *httptest.Server
	mu       sync.Mutex
	secret   string
	received []Delivery
	arrived  chan struct{} // closed and replaced at each delivery
}

// NewWebhookReceiver starts a receiver that verifies with secret (whsec_…), closed when the test
// ends. The secret may also come later, from the endpoint's creation: see SetSecret.
func NewWebhookReceiver(t testing.TB, secret string) *WebhookReceiver {
	t.Helper()
	r := &WebhookReceiver{secret: secret, arrived: make(chan struct{})}
	r.server = httptest.NewServer(http.HandlerFunc(r.receive))
	r.URL = r.server.URL + "/webhooks"
	t.Cleanup(r.Close)
	return r
}

// SetSecret sets the secret deliveries are verified with: POST /v1/webhooks answers it once.
func (r *WebhookReceiver) SetSecret(secret string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.secret = secret
}

// Received is every delivery so far, in arrival order, the refused ones included.
func (r *WebhookReceiver) Received() []Delivery {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Delivery(nil), r.received...)
}

// WaitFor answers the first verified delivery, already received or still to come, of an event of
// eventType ("" for any, payment.* for a resource's) about objectID ("" for any). It waits until
// ctx ends (DefaultEventTimeout when ctx has no deadline); giving up, its error says what it
// waited for and what did arrive, and wraps ctx's error, as WaitForEvent's does.
func (r *WebhookReceiver) WaitFor(ctx context.Context, eventType, objectID string) (Event, error) {
	ctx, cancel, budget := waitContext(ctx)
	defer cancel()
	for {
		r.mu.Lock()
		received, arrived := r.received, r.arrived
		r.mu.Unlock()
		for _, d := range received {
			if d.Verified && typeMatches(eventType, d.Event.Type) && (objectID == "" || d.Event.ObjectID() == objectID) {
				return d.Event, nil
			}
		}
		select {
		case <-arrived:
		case <-ctx.Done():
			return Event{}, r.waitTimeout(eventType, objectID, budget, ctx.Err())
		}
	}
}

// Close stops the server; NewWebhookReceiver's cleanup calls it.
func (r *WebhookReceiver) Close() {
	r.server.Close()
}

func (r *WebhookReceiver) receive(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(req.Body)
	r.mu.Lock()
	secret := r.secret
	r.mu.Unlock()
	switch {
	case err != nil:
		err = fmt.Errorf("reading the body: %w", err)
	case secret == "":
		err = fmt.Errorf("the receiver has no secret to verify with (NewWebhookReceiver's secret, or SetSecret)")
	default:
		err = VerifyWebhook(secret, req.Header, body, time.Now())
	}
	delivery := Delivery{Body: body, Header: req.Header.Clone(), Verified: err == nil, Err: err}
	json.Unmarshal(body, &delivery.Event)
	r.mu.Lock()
	r.received = append(r.received, delivery)
	close(r.arrived)
	r.arrived = make(chan struct{})
	r.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, err.Error())
		return
	}
	io.WriteString(w, "ok")
}

func (r *WebhookReceiver) waitTimeout(eventType, objectID string, waited time.Duration, cause error) error {
	wanted := "a"
	if eventType != "" {
		wanted += " " + eventType
	}
	wanted += " delivery"
	if objectID != "" {
		wanted += " of " + objectID
	}
	received := r.Received()
	if len(received) == 0 {
		return fmt.Errorf("walletsandbox: waited %v for %s; nothing arrived: %w", waited, wanted, cause)
	}
	total := len(received)
	if len(received) > 10 {
		received = received[len(received)-10:]
	}
	arrived := make([]string, len(received))
	for i, d := range received {
		arrived[i] = strings.TrimSpace(firstNonEmpty(d.Event.Type, "not JSON") + " " + d.Event.ObjectID())
		if !d.Verified {
			arrived[i] += " (refused: " + d.Err.Error() + ")"
		}
	}
	return fmt.Errorf("walletsandbox: waited %v for %s; %d arrived, the last: %s: %w", waited, wanted, total, strings.Join(arrived, ", "), cause)
}

// typeMatches says whether an event type answers a wanted one: "" any, payment.* a resource's.
func typeMatches(wanted, got string) bool {
	if wanted == "" || wanted == "*" || wanted == got {
		return true
	}
	return strings.HasSuffix(wanted, ".*") && strings.HasPrefix(got, strings.TrimSuffix(wanted, "*"))
}

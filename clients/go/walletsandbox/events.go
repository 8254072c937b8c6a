package walletsandbox

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// DefaultEventTimeout bounds WaitForEvent when its context has no deadline.
const DefaultEventTimeout = 10 * time.Second

// longestPoll is the longest wait one request of the events route takes; a longer wait is several.
const longestPoll = 30 * time.Second

// Event is one event of an account, exactly as a webhook delivery carries it.
type Event struct {
	ID         string    `json:"id"`
	Object     string    `json:"object"`
	Type       string    `json:"type"`
	CreatedAt  time.Time `json:"created_at"`
	APIVersion string    `json:"api_version"`
	AccountID  string    `json:"account_id"`
	Data       EventData `json:"data"`
}

// EventData holds the resource the event is about, as JSON: Decode reads it.
type EventData struct {
	Object json.RawMessage `json:"object"`
}

// ObjectID is the id of the resource the event is about ("" if it has none).
func (e Event) ObjectID() string {
	var object struct {
		ID string `json:"id"`
	}
	json.Unmarshal(e.Data.Object, &object)
	return object.ID
}

// Decode reads the resource the event is about into v (a *Payment, say).
func (e Event) Decode(v any) error {
	return json.Unmarshal(e.Data.Object, v)
}

// EventFilter selects events of one account: by its key (APIKey) or its id (AccountID); with
// neither, the sandbox's default account.
type EventFilter struct {
	APIKey    string
	AccountID string
	// Type is an event type (payment.failed), a resource's types (payment.*), * for all, or a
	// comma-separated list of these; "" for any.
	Type     string
	ObjectID string
	// After is an event id: only the events that came after it.
	After string
	// Limit is the most events one page holds (1 to 100; 0 for the sandbox's 100).
	Limit int
}

// EventPage is one page of events, oldest first. Dropped counts the account's events the sandbox
// no longer keeps (beyond --event-log-limit); Resets counts the account's resets, each of which
// began its log and its ids again (an After id kept from before one may name another event).
type EventPage struct {
	Data    []Event `json:"data"`
	HasMore bool    `json:"has_more"`
	Dropped int     `json:"dropped"`
	Resets  int     `json:"resets"`
}

// Events reads one page of the events that filter selects, oldest first.
func (s *Sandbox) Events(ctx context.Context, filter EventFilter) (EventPage, error) {
	return s.events(ctx, filter, 0)
}

// WaitForEvent answers the first event that filter selects, already there or still to come: it
// long-polls the events route until one arrives or ctx ends (DefaultEventTimeout when ctx has no
// deadline). Giving up, it says what it waited for and which events the account did have.
func (s *Sandbox) WaitForEvent(ctx context.Context, filter EventFilter) (Event, error) {
	ctx, cancel, budget := waitContext(ctx)
	defer cancel()
	deadline, _ := ctx.Deadline()
	filter.Limit = 1
	for {
		wait := time.Until(deadline)
		if wait > longestPoll {
			wait = longestPoll
		}
		page, err := s.events(ctx, filter, wait)
		if err == nil && len(page.Data) > 0 {
			return page.Data[0], nil
		}
		if err != nil && ctx.Err() == nil {
			return Event{}, err
		}
		if ctx.Err() != nil || time.Until(deadline) <= 0 {
			break
		}
	}
	cause := ctx.Err()
	if cause == nil {
		// The deadline passed between two polls, a moment before the context says so.
		cause = context.DeadlineExceeded
	}
	return Event{}, s.waitTimeout(filter, budget, cause)
}

// waitContext is ctx, bounded by DefaultEventTimeout when it has no deadline of its own, and the
// time it gives a wait, for the error of one that gives up.
func waitContext(ctx context.Context) (context.Context, context.CancelFunc, time.Duration) {
	cancel := context.CancelFunc(func() {})
	if _, ok := ctx.Deadline(); !ok {
		ctx, cancel = context.WithTimeout(ctx, DefaultEventTimeout)
	}
	deadline, _ := ctx.Deadline()
	return ctx, cancel, time.Until(deadline).Round(time.Millisecond)
}

func (s *Sandbox) events(ctx context.Context, filter EventFilter, wait time.Duration) (EventPage, error) {
	query := url.Values{}
	switch {
	case filter.APIKey != "":
		query.Set("api_key", filter.APIKey)
	case filter.AccountID != "":
		query.Set("account_id", filter.AccountID)
	default:
		query.Set("api_key", s.APIKey)
	}
	for name, value := range map[string]string{"type": filter.Type, "object_id": filter.ObjectID, "after": filter.After} {
		if value != "" {
			query.Set(name, value)
		}
	}
	if filter.Limit > 0 {
		query.Set("limit", strconv.Itoa(filter.Limit))
	}
	if wait > 0 {
		query.Set("wait", strconv.FormatInt(wait.Milliseconds(), 10))
	}
	raw, _, err := s.send(ctx, http.MethodGet, "/_sandbox/events", query, s.ControlToken, nil)
	if err != nil {
		return EventPage{}, err
	}
	var page EventPage
	if err := json.Unmarshal(raw, &page); err != nil {
		return EventPage{}, fmt.Errorf("walletsandbox: GET /_sandbox/events: %w", err)
	}
	return page, nil
}

// waitTimeout is WaitForEvent's error: what it waited for, and the account's last events.
func (s *Sandbox) waitTimeout(filter EventFilter, waited time.Duration, cause error) error {
	what := "event"
	if filter.Type != "" {
		what = strings.ReplaceAll(filter.Type, ",", " or ") + " event"
	}
	if filter.ObjectID != "" {
		what += " of " + filter.ObjectID
	}
	whose := EventFilter{APIKey: filter.APIKey, AccountID: filter.AccountID}
	account := "the default account"
	if filter.APIKey != "" {
		account = "the account of " + filter.APIKey
	} else if filter.AccountID != "" {
		account = "account " + filter.AccountID
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	seen, err := s.lastEvents(ctx, whose)
	had := describeEvents(seen, "it has had no events at all", "its last events were: ")
	if err != nil {
		had = "its events could not be read: " + err.Error()
	}
	return fmt.Errorf("walletsandbox: no %s on %s within %v; %s: %w", what, account, waited, had, cause)
}

// lastEvents is the newest events of an account, ten at most, from a few pages at most.
func (s *Sandbox) lastEvents(ctx context.Context, whose EventFilter) ([]Event, error) {
	var events []Event
	whose.Limit = 100
	for pages := 0; pages < 5; pages++ {
		page, err := s.Events(ctx, whose)
		if err != nil {
			return nil, err
		}
		events = append(events, page.Data...)
		if len(events) > 10 {
			events = events[len(events)-10:]
		}
		if !page.HasMore || len(page.Data) == 0 {
			break
		}
		whose.After = page.Data[len(page.Data)-1].ID
	}
	return events, nil
}

func describeEvents(events []Event, none, prefix string) string {
	if len(events) == 0 {
		return none
	}
	described := make([]string, len(events))
	for i, e := range events {
		described[i] = strings.TrimSpace(e.Type+" "+e.ObjectID()) + " (" + e.ID + ")"
	}
	return prefix + strings.Join(described, ", ")
}

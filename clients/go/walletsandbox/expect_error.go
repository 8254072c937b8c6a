package walletsandbox

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// NearMiss is a request of the account that came close to an unmet expectation, with what differed.
type NearMiss struct {
	Request     Request      `json:"request"`
	Differences []Difference `json:"differences"`
}

// Difference is one field in which a request differed from the expectation: Field is method, path,
// query.<name>, headers.<name> (lower case), body.<a>.<b> (body["a b"] for a key that is not a
// plain name; body for a whole body) or status. Expected and Actual are JSON; Actual is nil when
// the request had no such field, header, parameter or body. A header expected present is
// Expected true, absent false.
type Difference struct {
	Field    string          `json:"field"`
	Expected json.RawMessage `json:"expected"`
	Actual   json.RawMessage `json:"actual,omitempty"`
}

// RequestExpectationError is an expectation the account's requests did not meet: the expectation,
// the requests that did match (too few, or too many for Exactly), and up to 5 near misses, closest
// first. Its message shows them all, one difference a line.
type RequestExpectationError struct {
	Expectation RequestExpectation
	AccountID   string
	Matched     []Request
	NearMisses  []NearMiss
}

// shownMatches is how many matching requests a message lists (the sandbox sends up to 5 near misses).
const shownMatches = 5

func (e *RequestExpectationError) Error() string {
	x := e.Expectation
	how := "no request"
	if x.Count != 0 || !x.Exactly {
		count := x.Count
		if count == 0 {
			count = 1
		}
		how = fmt.Sprintf("at least %d %s", count, plural(count, "request", "requests"))
		if x.Exactly {
			how = "exactly" + strings.TrimPrefix(how, "at least")
		}
	}
	within := ""
	if ms := x.Within.Milliseconds(); ms > 0 {
		within = fmt.Sprintf(" within %v", time.Duration(ms)*time.Millisecond)
	}
	var shown string
	if p, err := x.pattern(); err == nil {
		shown = marshalPattern(p)
	}
	lines := []string{fmt.Sprintf("walletsandbox: expected %s matching %s from account %s%s; %d matched", how, shown, e.AccountID, within, len(e.Matched))}
	if len(e.Matched) > 0 && x.Exactly {
		lines = append(lines, "Matched:")
		for i, request := range e.Matched {
			if i == shownMatches {
				lines = append(lines, fmt.Sprintf("  and %d more", len(e.Matched)-shownMatches))
				break
			}
			lines = append(lines, "  "+describeRequest(request))
		}
	}
	switch {
	case len(e.NearMisses) > 0:
		lines = append(lines, "Closest requests:")
		for _, miss := range e.NearMisses {
			lines = append(lines, "  "+describeRequest(miss.Request))
			for _, difference := range miss.Differences {
				lines = append(lines, "    "+difference.String())
			}
		}
	case len(e.Matched) == 0:
		lines = append(lines, "The account has no other /v1 requests in the journal.")
	}
	return strings.Join(lines, "\n")
}

// String is the difference as a failure shows it: `body.amount: expected "10.00", got "10"`; a
// header expected present shows `present`, absent `absent`, and a missing field `got nothing`.
func (d Difference) String() string {
	header := strings.HasPrefix(d.Field, "headers.")
	shown := func(value json.RawMessage) string {
		switch {
		case header && string(value) == "true":
			return "present"
		case header && string(value) == "false":
			return "absent"
		}
		return string(value)
	}
	got := "nothing"
	if d.Actual != nil {
		got = shown(d.Actual)
	}
	return fmt.Sprintf("%s: expected %s, got %s", d.Field, shown(d.Expected), got)
}

// describeRequest is a request as a failure lists it: `POST /v1/payments 201 (req_…, replayed,
// 2026-01-01T00:00:00.000Z)`.
func describeRequest(r Request) string {
	target := r.Method + " " + r.Path
	if r.Query != "" {
		target += "?" + r.Query
	}
	status := "no answer"
	if r.Status != 0 {
		status = fmt.Sprint(r.Status)
	}
	replayed := ""
	if r.Replayed {
		replayed = ", replayed"
	}
	return fmt.Sprintf("%s %s (%s%s, %s)", target, status, r.ID, replayed, r.At.UTC().Format("2006-01-02T15:04:05.000Z07:00"))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// refusedExpectation is a 400 of the expect route, said with the field of RequestExpectation that
// the sandbox refused; errors.As finds the *APIError.
type refusedExpectation struct{ err *APIError }

func (r *refusedExpectation) Error() string {
	return fmt.Sprintf("walletsandbox: the expectation's %s is refused: %s (%d %s, param %s)", expectationField(r.err.Param), r.err.Message, r.err.StatusCode, r.err.Code, r.err.Param)
}

func (r *refusedExpectation) Unwrap() error { return r.err }

// expectationField names the field of RequestExpectation that a param of the control API is.
func expectationField(param string) string {
	name, key, keyed := strings.Cut(param, ".")
	switch {
	case param == "within_ms":
		return "Within"
	case name == "query" && keyed:
		return fmt.Sprintf("Query[%q]", key)
	case name == "headers" && keyed:
		return fmt.Sprintf("header %q (Headers, HeadersPresent or HeadersAbsent)", key)
	case name == "body":
		return "Body"
	case param == "":
		return "expectation"
	}
	return strings.ToUpper(param[:1]) + param[1:]
}

// marshalPattern is the pattern's JSON, as a failure shows it.
func marshalPattern(p pattern) string {
	encoded, err := json.Marshal(p)
	if err != nil {
		return fmt.Sprintf("%+v", p)
	}
	return string(encoded)
}

package walletsandbox_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The worked example of docs/go.md's "Asserting what your code sent", run as a user runs it: go
// test in ../examples/expectations, a module of its own whose TestMain starts a sandbox. Its test
// of a retried payment passes; its test that fails on purpose fails, at its own line, with the
// near miss in its message.
func TestTheExpectationsExamplePassesItsRetryAndFailsOnPurposeWithTheNearMiss(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(goCommand, "test", "-count=1", "-json", "./...")
	cmd.Dir, cmd.Env = "../examples/expectations", exampleEnv()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if _, failed := err.(*exec.ExitError); !failed {
		t.Fatalf("go test in examples/expectations: %v, want it to fail (one test fails on purpose)\n%s%s", err, out, &stderr)
	}
	actions, output := map[string]string{}, map[string]string{}
	scanner := bufio.NewScanner(bytes.NewReader(out))
	for scanner.Scan() {
		var event struct{ Action, Test, Output string }
		if json.Unmarshal(scanner.Bytes(), &event) != nil || event.Test == "" {
			continue
		}
		output[event.Test] += event.Output
		if event.Action == "pass" || event.Action == "fail" {
			actions[event.Test] = event.Action
		}
	}
	const retry, onPurpose = "TestAPaymentRetriedAfterALostAnswerReusesItsIdempotencyKey", "TestFailsOnPurposeTheAmountWentOutAs10"
	if actions[retry] != "pass" || actions[onPurpose] != "fail" || len(actions) != 2 {
		t.Fatalf("the example's tests ended %v, want %s passed and %s failed\n%s%s", actions, retry, onPurpose, out, &stderr)
	}
	failure := output[onPurpose]
	// RequireRequest is a helper (t.Helper): the failure is at the test's own line.
	at := regexp.MustCompile(`\bpayments_sent_test\.go:\d+: walletsandbox: expected`)
	if !at.MatchString(failure) {
		t.Errorf("the failure is not said at a line of payments_sent_test.go:\n%s", failure)
	}
	for _, want := range []string{
		`walletsandbox: expected at least 1 request matching {"method":"POST","path":"/v1/payments","headers":{"Idempotency-Key":"invoice-42"},"body":{"amount":"10.00"}} from account acct_`,
		"\n        Closest requests:\n          POST /v1/payments 201 (req_",
		"\n            body.amount: expected \"10.00\", got \"10\"\n",
	} {
		if !strings.Contains(failure, want) {
			t.Errorf("the failure does not show\n%s\nIt is:\n%s", want, failure)
		}
	}
}

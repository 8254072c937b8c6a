package walletsandbox_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"

// signed is the headers of a delivery of body signed with secret at sent.
func signed(secret, id string, sent time.Time, body string) http.Header {
	header := http.Header{}
	header.Set("webhook-id", id)
	header.Set("webhook-timestamp", strconv.FormatInt(sent.Unix(), 10))
	header.Set("webhook-signature", walletsandbox.SignWebhook(secret, id, sent, []byte(body)))
	return header
}

func TestVerifyWebhookChecksTheHeadersTheTimestampAndTheSignature(t *testing.T) {
	t.Parallel()
	now := time.Unix(1767225600, 0)
	body := `{"id":"evt_1","type":"payment.failed"}`
	good := signed(secret, "evt_1", now, body)
	with := func(name, value string) http.Header {
		header := good.Clone()
		header.Set(name, value)
		return header
	}
	cases := []struct {
		name   string
		header http.Header
		body   string
		now    time.Time
		want   string
	}{
		{"a good delivery", good, body, now, ""},
		{"within five minutes", good, body, now.Add(5 * time.Minute), ""},
		{"one good signature among several", with("webhook-signature", "v1,AAAA v2,"+good.Get("webhook-signature")[3:]+" "+good.Get("webhook-signature")), body, now, ""},
		{"another body", good, `{"id":"evt_1","type":"payment.completed"}`, now, "no v1 signature matches the body under this secret"},
		{"another secret", signed("whsec_"+strings.Repeat("A", 32), "evt_1", now, body), body, now, "no v1 signature matches the body under this secret"},
		{"another id", with("webhook-id", "evt_2"), body, now, "no v1 signature matches the body under this secret"},
		{"a signature of another scheme", with("webhook-signature", "v2,"+good.Get("webhook-signature")[3:]), body, now, "no v1 signature matches the body under this secret"},
		{"too old", good, body, now.Add(5*time.Minute + time.Second), "webhook-timestamp 1767225600 is more than 5m0s from now (1767225901)"},
		{"from the future", good, body, now.Add(-6 * time.Minute), "webhook-timestamp 1767225600 is more than 5m0s from now (1767225240)"},
		{"a timestamp in milliseconds' form", with("webhook-timestamp", "1767225600.5"), body, now, `webhook-timestamp is not whole seconds: "1767225600.5"`},
		{"no signature", with("webhook-signature", ""), body, now, "missing webhook-id, webhook-timestamp or webhook-signature"},
	}
	for _, c := range cases {
		err := walletsandbox.VerifyWebhook(secret, c.header, []byte(c.body), c.now)
		if (err == nil && c.want != "") || (err != nil && err.Error() != c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// deliver posts body with header to the receiver, and answers the status and the answer's body.
func deliver(t *testing.T, receiver *walletsandbox.WebhookReceiver, header http.Header, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, receiver.URL, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = header
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	answer, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(answer)
}

func TestTheReceiverAnswers400ToADeliveryThatDoesNotVerifyAndRecordsIt(t *testing.T) {
	t.Parallel()
	receiver := walletsandbox.NewWebhookReceiver(t, secret)
	body := `{"id":"evt_1","type":"payment.failed","data":{"object":{"id":"pay_1"}}}`
	status, answer := deliver(t, receiver, signed("whsec_"+strings.Repeat("B", 32), "evt_1", time.Now(), body), body)
	if status != http.StatusBadRequest || answer != "no v1 signature matches the body under this secret" {
		t.Errorf("a wrongly signed delivery got %d %q", status, answer)
	}
	if status, answer := deliver(t, receiver, signed(secret, "evt_1", time.Now(), body), body); status != http.StatusOK || answer != "ok" {
		t.Errorf("a good delivery got %d %q", status, answer)
	}
	received := receiver.Received()
	if len(received) != 2 || received[0].Verified || received[0].Err == nil || !received[1].Verified || received[1].Event.ObjectID() != "pay_1" {
		t.Errorf("the receiver recorded %+v", received)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	event, err := receiver.WaitFor(ctx, "payment.*", "pay_1")
	if err != nil || event.ID != "evt_1" {
		t.Errorf("WaitFor answered %+v, %v", event, err)
	}
}

func TestAReceiverWithoutASecretRefusesEveryDelivery(t *testing.T) {
	t.Parallel()
	receiver := walletsandbox.NewWebhookReceiver(t, "")
	body := `{"id":"evt_1"}`
	status, answer := deliver(t, receiver, signed(secret, "evt_1", time.Now(), body), body)
	if status != http.StatusBadRequest || !strings.Contains(answer, "the receiver has no secret to verify with") {
		t.Errorf("got %d %q", status, answer)
	}
}

func TestWaitForSaysWhatArrivedInstead(t *testing.T) {
	t.Parallel()
	receiver := walletsandbox.NewWebhookReceiver(t, secret)
	created := `{"id":"evt_1","type":"payment.created","data":{"object":{"id":"pay_1"}}}`
	failed := `{"id":"evt_2","type":"payment.failed","data":{"object":{"id":"pay_1"}}}`
	deliver(t, receiver, signed(secret, "evt_1", time.Now(), created), created)
	deliver(t, receiver, signed(secret, "evt_2", time.Now().Add(-time.Hour), failed), failed)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := receiver.WaitFor(ctx, walletsandbox.EventPaymentFailed, "pay_1")
	want := regexp.MustCompile(`^walletsandbox: waited \d+ms for a payment.failed delivery of pay_1; 2 arrived, the last: payment.created pay_1, ` +
		`payment.failed pay_1 \(refused: webhook-timestamp \d+ is more than 5m0s from now \(\d+\)\): context deadline exceeded$`)
	if err == nil || !want.MatchString(err.Error()) || !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("got %v, want %s", err, want)
	}
}

func TestWaitForEndsWithItsContext(t *testing.T) {
	t.Parallel()
	receiver := walletsandbox.NewWebhookReceiver(t, secret)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := receiver.WaitFor(ctx, "", "")
	if err == nil || !errors.Is(err, context.Canceled) || !strings.HasSuffix(err.Error(), "for a delivery; nothing arrived: context canceled") {
		t.Errorf("got %v, want context.Canceled", err)
	}
}

package walletsandbox

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// Webhook signatures follow Standard Webhooks (https://www.standardwebhooks.com): a secret is
// whsec_ and the base64 of the key, and the webhook-signature header holds v1, and the base64 of
// HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>"), possibly several space-separated.

// SignatureTolerance is how far a delivery's webhook-timestamp may be from now.
const SignatureTolerance = 5 * time.Minute

// SignWebhook is the webhook-signature header of a delivery: v1,<base64 HMAC-SHA256>. A test of
// an application's own webhook handler can sign its requests with it.
func SignWebhook(secret, id string, timestamp time.Time, body []byte) string {
	mac := hmac.New(sha256.New, webhookKey(secret))
	fmt.Fprintf(mac, "%s.%d.", id, timestamp.Unix())
	mac.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
}

// VerifyWebhook checks a delivery: the three webhook-* headers present, the timestamp within
// SignatureTolerance of now, and one of the v1 signatures the HMAC of body under secret (compared
// in constant time). The error says which check failed.
func VerifyWebhook(secret string, header http.Header, body []byte, now time.Time) error {
	id, timestamp, signatures := header.Get("webhook-id"), header.Get("webhook-timestamp"), header.Get("webhook-signature")
	if id == "" || timestamp == "" || signatures == "" {
		return errors.New("missing webhook-id, webhook-timestamp or webhook-signature")
	}
	seconds, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil || seconds < 0 {
		return fmt.Errorf("webhook-timestamp is not whole seconds: %q", timestamp)
	}
	if skew := now.Sub(time.Unix(seconds, 0)); skew > SignatureTolerance || skew < -SignatureTolerance {
		return fmt.Errorf("webhook-timestamp %s is more than %v from now (%d)", timestamp, SignatureTolerance, now.Unix())
	}
	expected, _ := base64.StdEncoding.DecodeString(strings.TrimPrefix(SignWebhook(secret, id, time.Unix(seconds, 0), body), "v1,"))
	for _, entry := range strings.Fields(signatures) {
		given, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(entry, "v1,"))
		if strings.HasPrefix(entry, "v1,") && err == nil && hmac.Equal(given, expected) {
			return nil
		}
	}
	return errors.New("no v1 signature matches the body under this secret")
}

// webhookKey is the HMAC key: the base64-decoded part after whsec_.
func webhookKey(secret string) []byte {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil {
		// Not base64, so not a secret the sandbox signs with: it mismatches, like a wrong one.
		return []byte(secret)
	}
	return key
}

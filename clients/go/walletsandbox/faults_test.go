package walletsandbox_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/wallet-sandbox/wallet-sandbox/clients/go/walletsandbox"
)

func TestAnAccountsFaultHitsItsOwnRequestsAlone(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	account, other := sandbox.NewAccount(t), sandbox.NewAccount(t)
	id, err := account.AddFault(ctx, walletsandbox.Fault{Kind: "error", Method: "POST", Path: "/v1/payments", Times: 1})
	if err != nil || !strings.HasPrefix(id, "flt_") {
		t.Fatalf("AddFault: %q, %v", id, err)
	}
	pay(ctx, t, other, "1.00") // the other account's payment is made
	wallet, _ := account.Wallet("USDC", "polygon")
	body := map[string]string{"source_wallet": wallet.ID, "amount": "1.00", "currency": "USDC", "recipient": recipient}
	var apiErr *walletsandbox.APIError
	if err := account.Call(ctx, http.MethodPost, "/payments", body, nil); !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("the account's first payment: %v, want the fault's 503", err)
	}
	pay(ctx, t, account, "1.00") // once only

	_, err = account.AddFault(ctx, walletsandbox.Fault{Kind: "sideways"})
	if !errors.As(err, &apiErr) || apiErr.Param != "fault" {
		t.Errorf("a fault of no kind: %v, want a 400 naming fault", err)
	}
}

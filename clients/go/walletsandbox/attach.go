package walletsandbox

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
)

// attachTo is the sandbox Run attaches to and what named it, or "" when Run starts one.
func (o options) attachTo() (base, from string) {
	if o.url != "" {
		return o.url, "WithURL"
	}
	if base := os.Getenv("WALLET_SANDBOX_BASE_URL"); base != "" && !o.own {
		return base, "WALLET_SANDBOX_BASE_URL"
	}
	return "", ""
}

// attach uses the sandbox at base, after checking that it answers and that its version fits, and
// says which of the options it could not apply to it.
func attach(ctx context.Context, base, from string, o options) (*Sandbox, error) {
	base = strings.TrimRight(base, "/")
	parsed, err := url.Parse(base)
	if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") || parsed.Host == "" {
		return nil, fmt.Errorf("walletsandbox: %s is %q, which is not the base URL of a sandbox (http://127.0.0.1:4400, say)", from, base)
	}
	if strings.HasSuffix(parsed.Path, "/v1") {
		// The API's URL, WALLET_SANDBOX_URL's value: the control API is not under it.
		return nil, fmt.Errorf("walletsandbox: %s is %s, the API's URL; it takes the sandbox's base URL, without /v1: drop the /v1 (%s)", from, base, strings.TrimSuffix(base, "/v1"))
	}
	stream := *parsed
	stream.Scheme = map[string]string{"http": "ws", "https": "wss"}[parsed.Scheme]
	sb := newSandbox(readyLine{
		URL: base + "/v1", BaseURL: base, StreamURL: stream.String() + "/v1/stream",
		APIKey: firstNonEmpty(os.Getenv("WALLET_SANDBOX_API_KEY"), DefaultAPIKey),
	}, nil, o.logger)
	sb.ControlToken = os.Getenv("WALLET_SANDBOX_CONTROL_TOKEN")
	_, header, err := sb.send(ctx, http.MethodGet, "/_sandbox/health", nil, "", nil)
	if err != nil {
		sb.Close()
		return nil, fmt.Errorf("walletsandbox: attaching to the sandbox at %s: %w", base, err)
	}
	sb.Version = header.Get("Wallet-Sandbox-Version")
	if err := checkVersion(sb.Version); err != nil {
		sb.Close()
		return nil, fmt.Errorf("walletsandbox: attaching to the sandbox at %s: %w", base, err)
	}
	if ignored := o.forStarting(); len(ignored) > 0 {
		how := "give WithOwnSandbox() to start a sandbox of this process's own with them"
		if len(o.args) > 0 {
			how = fmt.Sprintf("start that sandbox with them (wallet-sandbox exec %s -- go test ./...), or %s", commandLine(o.args), how)
		}
		o.logger.Printf("walletsandbox: attached to the sandbox at %s that %s names, which keeps the settings it was started with: %s not applied; %s.",
			base, from, strings.Join(ignored, " and "), how)
	}
	return sb, nil
}

// forStarting is the options given that only a sandbox Run starts can take.
func (o options) forStarting() []string {
	var given []string
	if len(o.args) > 0 {
		given = append(given, fmt.Sprintf("WithArgs(%s)", commandLine(o.args)))
	}
	if o.bin != "" {
		given = append(given, fmt.Sprintf("WithBin(%s)", o.bin))
	}
	if o.image != "" {
		given = append(given, fmt.Sprintf("WithImage(%s)", o.image))
	}
	return given
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

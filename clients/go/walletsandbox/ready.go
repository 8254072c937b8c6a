package walletsandbox

import (
	"encoding/json"
	"fmt"
	"strings"
)

// CompatibleVersion is the sandbox version this package was written for: it accepts a sandbox of
// the same major.minor (0.1.x) and refuses any other with a message naming both versions.
const CompatibleVersion = "0.1"

// DefaultAPIKey is the key of the seeded default account, which every sandbox knows.
const DefaultAPIKey = "sk_test_sandbox_default_key"

// readyLine is the one JSON line that `wallet-sandbox --ready-json` writes first on stdout.
type readyLine struct {
	Ready        bool    `json:"ready"`
	URL          string  `json:"url"`
	BaseURL      string  `json:"base_url"`
	StreamURL    string  `json:"stream_url"`
	APIKey       string  `json:"api_key"`
	ControlToken *string `json:"control_token"`
	Port         int     `json:"port"`
	PID          int     `json:"pid"`
	Version      string  `json:"version"`
}

func parseReadyLine(line string) (readyLine, error) {
	var ready readyLine
	if err := json.Unmarshal([]byte(line), &ready); err != nil || !ready.Ready || ready.BaseURL == "" {
		return readyLine{}, fmt.Errorf("its first line is not the ready line of --ready-json: %q", truncate(line, 200))
	}
	return ready, nil
}

// checkVersion accepts a version of the same major.minor as CompatibleVersion.
func checkVersion(version string) error {
	parts := strings.SplitN(version, ".", 3)
	if len(parts) >= 2 && parts[0]+"."+parts[1] == CompatibleVersion {
		return nil
	}
	if version == "" {
		version = "unknown (no Wallet-Sandbox-Version)"
	}
	return fmt.Errorf("the sandbox is version %s and this package is for version %s.x: use a sandbox and a walletsandbox package of the same major.minor", version, CompatibleVersion)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

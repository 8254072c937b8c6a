package walletsandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strings"
)

// containerPort is where the image listens (its EXPOSE).
const containerPort = "4400/tcp"

// startContainer runs the image as `<engine> run --rm`, the CLI's ready line on its stdout, and
// publishes the port on a free port of 127.0.0.1, which `<engine> port` tells. The supervisor
// runs `<engine> stop` before it signals the group.
func startContainer(ctx context.Context, o options) (*Sandbox, error) {
	engine := firstNonEmpty(os.Getenv("WALLET_SANDBOX_CONTAINER_ENGINE"), "docker")
	enginePath, err := exec.LookPath(engine)
	if err != nil {
		return nil, fmt.Errorf("walletsandbox: WithImage(%q) needs a container engine, and %s is not on PATH (WALLET_SANDBOX_CONTAINER_ENGINE=podman names another): %w", o.image, engine, err)
	}
	name, err := containerName()
	if err != nil {
		return nil, fmt.Errorf("walletsandbox: naming the container: %w", err)
	}
	command := append([]string{enginePath, "run", "--rm", "--name", name, "-p", "127.0.0.1::4400", o.image, "--ready-json"}, o.args...)
	p, line, err := startProcess(ctx, command, enginePath, name, o.startTimeout)
	if err != nil {
		return nil, err
	}
	ready, err := acceptReadyLine(p, line)
	if err != nil {
		return nil, err
	}
	host, err := publishedAddress(ctx, enginePath, name)
	if err != nil {
		p.close()
		return nil, p.failure("started, but its published port is unknown", err)
	}
	ready.BaseURL = "http://" + host
	ready.URL = ready.BaseURL + "/v1"
	ready.StreamURL = "ws://" + host + "/v1/stream"
	return newSandbox(ready, p, o.logger), nil
}

// publishedAddress reads `<engine> port <name> 4400/tcp`, whose first line is the host address
// (127.0.0.1:32771); an address on every interface is reached on 127.0.0.1.
func publishedAddress(ctx context.Context, engine, name string) (string, error) {
	out, err := exec.CommandContext(ctx, engine, "port", name, containerPort).Output()
	if err != nil {
		return "", fmt.Errorf("%s port %s %s: %w", engine, name, containerPort, err)
	}
	first := strings.TrimSpace(strings.SplitN(string(out), "\n", 2)[0])
	host, port, err := net.SplitHostPort(first)
	if err != nil {
		return "", fmt.Errorf("%s port %s %s answered %q: %w", engine, name, containerPort, first, err)
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

func containerName() (string, error) {
	random := make([]byte, 6)
	if _, err := rand.Read(random); err != nil {
		return "", err
	}
	return "wallet-sandbox-" + hex.EncodeToString(random), nil
}

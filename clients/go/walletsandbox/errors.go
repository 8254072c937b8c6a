package walletsandbox

import (
	"fmt"
	"regexp"
	"strings"
)

// StartError is why a sandbox did not start (or, from Close, why it ended while in use): the
// command, how it ended, and the last lines it wrote (stdout and stderr), so that one message
// says what to fix.
type StartError struct {
	Command []string
	// ExitCode is the command's exit code when it exited by itself, -1 otherwise (a timeout, a
	// version it refused, a signal).
	ExitCode  int
	Reason    string
	LastLines []string
	// Err is the underlying error, if any (the context's, say).
	Err error
}

func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "walletsandbox: the sandbox command %s %s", commandLine(e.Command), e.Reason)
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	if len(e.LastLines) == 0 {
		b.WriteString("; it wrote nothing else")
		return b.String()
	}
	b.WriteString("; its last lines:")
	for _, line := range e.LastLines {
		b.WriteString("\n    " + line)
	}
	return b.String()
}

func (e *StartError) Unwrap() error { return e.Err }

// APIError is an answer of the sandbox other than 2xx, with the fields of its error body.
type APIError struct {
	Method     string
	Path       string
	StatusCode int
	Type       string
	Code       string
	Message    string
	Param      string
	RequestID  string
}

func (e *APIError) Error() string {
	msg := fmt.Sprintf("walletsandbox: %s %s: %d", e.Method, e.Path, e.StatusCode)
	if e.Code != "" {
		msg += " " + e.Code
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

var plainArg = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// commandLine renders a command as a shell would take it, to be pasted and run by hand.
func commandLine(command []string) string {
	quoted := make([]string, len(command))
	for i, arg := range command {
		if plainArg.MatchString(arg) {
			quoted[i] = arg
		} else {
			quoted[i] = "'" + strings.ReplaceAll(arg, "'", `'\''`) + "'"
		}
	}
	return strings.Join(quoted, " ")
}

package walletsandbox

import (
	"fmt"
	"regexp"
	"strings"
)

// StartError is why a sandbox did not start (or, from Close, why it ended while in use): the
// command, how it ended, and what it wrote (stdout and stderr), its first lines and its last, so
// that one message says what to fix.
type StartError struct {
	Command []string
	// ExitCode is the command's exit code when it exited by itself, -1 otherwise (a timeout, a
	// version it refused, a signal).
	ExitCode int
	Reason   string
	// FirstLines and LastLines are what the command wrote first and last: all of it when it wrote
	// little, else its first 10 lines and its last 50, with Omitted lines between them.
	FirstLines []string
	LastLines  []string
	Omitted    int
	// Hint says what to do about it, when the package knows (npx found no CLI to run, say).
	Hint string
	// Err is the underlying error, if any (the context's, say).
	Err error
}

func (e *StartError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "walletsandbox: the sandbox command %s %s", commandLine(e.Command), e.Reason)
	if e.Err != nil {
		fmt.Fprintf(&b, ": %v", e.Err)
	}
	switch {
	case len(e.FirstLines)+len(e.LastLines) == 0:
		b.WriteString("; it wrote nothing else")
	case e.Omitted == 0:
		b.WriteString("; its output:")
		writeLines(&b, e.FirstLines)
		writeLines(&b, e.LastLines)
	default:
		b.WriteString("; its first and last lines:")
		writeLines(&b, e.FirstLines)
		fmt.Fprintf(&b, "\n    [%d lines left out]", e.Omitted)
		writeLines(&b, e.LastLines)
	}
	if e.Hint != "" {
		b.WriteString("\n" + e.Hint)
	}
	return b.String()
}

func writeLines(b *strings.Builder, lines []string) {
	for _, line := range lines {
		b.WriteString("\n    " + line)
	}
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

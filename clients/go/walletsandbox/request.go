package walletsandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
)

// call sends one request and decodes the data of its answer ({data, request_id}) into out.
func (s *Sandbox) call(ctx context.Context, method, path string, query url.Values, bearer string, body, out any) error {
	raw, _, err := s.send(ctx, method, path, query, bearer, body)
	if err != nil || out == nil {
		return err
	}
	var envelope struct {
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(raw, &envelope); err != nil {
		return fmt.Errorf("walletsandbox: %s %s: the answer is not JSON: %w", method, path, err)
	}
	if err := json.Unmarshal(envelope.Data, out); err != nil {
		return fmt.Errorf("walletsandbox: %s %s: reading the answer's data: %w", method, path, err)
	}
	return nil
}

// control calls the control API, with the control token when the sandbox has one.
func (s *Sandbox) control(ctx context.Context, method, path string, body, out any) error {
	return s.call(ctx, method, path, nil, s.ControlToken, body, out)
}

// send sends one request to the sandbox (path from its root) and answers the body of a 2xx
// answer, or an *APIError.
func (s *Sandbox) send(ctx context.Context, method, path string, query url.Values, bearer string, body any) ([]byte, http.Header, error) {
	var reader io.Reader
	if body != nil {
		encoded, err := json.Marshal(body)
		if err != nil {
			return nil, nil, fmt.Errorf("walletsandbox: %s %s: encoding the body: %w", method, path, err)
		}
		reader = bytes.NewReader(encoded)
	}
	target := s.BaseURL + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	req, err := http.NewRequestWithContext(ctx, method, target, reader)
	if err != nil {
		return nil, nil, fmt.Errorf("walletsandbox: %s %s: %w", method, path, err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if bearer != "" {
		req.Header.Set("Authorization", "Bearer "+bearer)
	}
	res, err := s.client.Do(req)
	if err != nil {
		return nil, nil, fmt.Errorf("walletsandbox: %s %s: %w", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, nil, fmt.Errorf("walletsandbox: %s %s: reading the answer: %w", method, path, err)
	}
	if res.StatusCode < 200 || res.StatusCode > 299 {
		return nil, res.Header, apiError(method, path, res.StatusCode, raw)
	}
	return raw, res.Header, nil
}

func apiError(method, path string, status int, raw []byte) *APIError {
	var answer struct {
		Error struct {
			Type    string `json:"type"`
			Code    string `json:"code"`
			Message string `json:"message"`
			Param   string `json:"param"`
		} `json:"error"`
		RequestID string `json:"request_id"`
	}
	e := &APIError{Method: method, Path: path, StatusCode: status}
	if json.Unmarshal(raw, &answer) != nil || answer.Error.Code == "" {
		e.Message = truncate(string(bytes.TrimSpace(raw)), 300)
		return e
	}
	e.Type, e.Code, e.Message, e.Param, e.RequestID = answer.Error.Type, answer.Error.Code, answer.Error.Message, answer.Error.Param, answer.RequestID
	return e
}

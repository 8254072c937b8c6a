# frozen_string_literal: true

require "openssl"

module WalletSandbox
  # Standard Webhooks (https://www.standardwebhooks.com), as the sandbox signs its deliveries: a
  # secret is `whsec_` + base64 of the key bytes; `webhook-signature` is `v1,` + base64 of
  # HMAC-SHA256(key, "<webhook-id>.<webhook-timestamp>.<body>"), possibly several, space-separated.
  module StandardWebhooks
    # How far a delivery's timestamp may be from now, in seconds.
    TOLERANCE = 5 * 60

    module_function

    def sign(secret, id:, timestamp:, body:)
      "v1,#{[mac(secret, id, timestamp, body)].pack('m0')}"
    end

    # Why a delivery does not verify, or nil when it does. `headers` has lower-case names.
    def verification_error(secret, headers, body, now: Time.now.to_i)
      id, timestamp, signatures = headers.values_at("webhook-id", "webhook-timestamp", "webhook-signature")
      return "missing webhook-id, webhook-timestamp or webhook-signature" if [id, timestamp, signatures].any? { |v| v.to_s.empty? }
      return "webhook-timestamp is not whole seconds: #{timestamp.inspect}" unless timestamp.match?(/\A\d+\z/)
      if (now - timestamp.to_i).abs > TOLERANCE
        return "webhook-timestamp #{timestamp} is more than #{TOLERANCE} s from now (#{now})"
      end

      expected = mac(secret, id, timestamp.to_i, body)
      matches = signatures.split(" ").any? do |entry|
        given = entry.start_with?("v1,") ? entry[3..].unpack1("m") : ""
        given.bytesize == expected.bytesize && OpenSSL.fixed_length_secure_compare(given, expected)
      end
      matches ? nil : "no v1 signature matches the body under this secret"
    end

    def mac(secret, id, timestamp, body)
      key = secret.delete_prefix("whsec_").unpack1("m")
      OpenSSL::HMAC.digest("SHA256", key, "#{id}.#{timestamp}.#{body}".b)
    end
  end
end

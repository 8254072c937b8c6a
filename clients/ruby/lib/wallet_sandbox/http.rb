# frozen_string_literal: true

require "json"
require "net/http"
require "uri"
require_relative "errors"

module WalletSandbox
  # JSON over HTTP to one sandbox (/v1 and /_sandbox), one connection per request so that threads
  # can share it. Answers the parsed body; raises APIError, carrying the API's error code, on
  # anything but 2xx.
  class HTTP
    attr_reader :base_url

    def initialize(base_url)
      @base_url = base_url
      @uri = URI(base_url)
    end

    # `path` is from the base URL (`/v1/wallets`, `/_sandbox/clock`); `query` a Hash, nils left out.
    def request(method, path, body: nil, query: nil, bearer: nil, read_timeout: 60)
      response = exchange(method, target(path, query), body, bearer, read_timeout)
      parsed = parse(response.body)
      return parsed if response.is_a?(Net::HTTPSuccess)

      raise APIError.new(describe(method, path, response, parsed), status: response.code.to_i, body: parsed)
    end

    # The raw answer to GET `path` (for its headers).
    def get_raw(path)
      Net::HTTP.start(@uri.host, @uri.port, open_timeout: 5, read_timeout: 10) do |http|
        http.request(Net::HTTP::Get.new(path))
      end
    end

    private

    def exchange(method, target, body, bearer, read_timeout)
      request = Net::HTTP.const_get(method.to_s.capitalize).new(target)
      request["Authorization"] = "Bearer #{bearer}" if bearer
      request["Accept"] = "application/json"
      unless body.nil?
        request["Content-Type"] = "application/json"
        request.body = JSON.generate(body)
      end
      Net::HTTP.start(@uri.host, @uri.port, open_timeout: 5, read_timeout: read_timeout) do |http|
        http.request(request)
      end
    end

    def target(path, query)
      pairs = (query || {}).reject { |_, value| value.nil? }
      pairs.empty? ? path : "#{path}?#{URI.encode_www_form(pairs)}"
    end

    def parse(text)
      text.nil? || text.empty? ? nil : JSON.parse(text)
    rescue JSON::ParserError
      text
    end

    def describe(method, path, response, parsed)
      error = parsed.is_a?(Hash) && parsed["error"].is_a?(Hash) ? parsed["error"] : nil
      said = error ? "#{error['code']}: #{error['message']}" : parsed.to_s[0, 300]
      "#{method.to_s.upcase} #{path} answered #{response.code} #{said}"
    end
  end
end

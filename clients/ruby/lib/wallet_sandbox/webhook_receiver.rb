# frozen_string_literal: true

require "json"
require "socket"
require_relative "errors"
require_relative "standard_webhooks"

module WalletSandbox
  # A local HTTP endpoint that receives webhook deliveries and verifies every one (StandardWebhooks):
  # a valid one is answered 200, any other 400 with the reason; both are recorded, and #wait_for
  # returns only verified ones. A TCPServer on a free port, one thread per connection.
  class WebhookReceiver
    # One request the receiver got: `event` is the parsed body (nil when not JSON), `headers` have
    # lower-case names, `error` says why it did not verify.
    Delivery = Struct.new(:event, :body, :headers, :verified, :error, keyword_init: true) do
      def verified? = verified
    end

    # Longest head a request may have; the sandbox's are well under 2 KiB.
    MAX_HEAD = 16 * 1024

    # Where to point a webhook endpoint: http://127.0.0.1:PORT/webhooks.
    attr_reader :url
    # The endpoint's `whsec_` secret; may be set once the endpoint exists (its creation answers it).
    attr_accessor :secret

    # A receiver for the block's length: `WebhookReceiver.open { |receiver| … }`.
    def self.open(**options)
      receiver = new(**options)
      yield receiver
    ensure
      receiver&.close
    end

    # `host` 0.0.0.0 lets a sandbox in a container reach it (then give it this host's address).
    def initialize(secret: nil, host: "127.0.0.1", port: 0)
      @secret = secret
      @server = TCPServer.new(host, port)
      @url = "http://#{host == '0.0.0.0' ? '127.0.0.1' : host}:#{@server.addr[1]}/webhooks"
      @received = []
      @connections = []
      @lock = Mutex.new
      @arrived = ConditionVariable.new
      @acceptor = Thread.new { accept_connections }
      @acceptor.report_on_exception = false
    end

    # Every request so far, in arrival order, the refused ones included.
    def received = @lock.synchronize { @received.dup }

    # The first verified delivery, already received or still to come, of `type` (`payment.*` works;
    # any when nil) and `object_id` if given, and for which the block, if given, is true: its event.
    # Raises EventTimeout after `timeout` seconds, saying what arrived instead.
    def wait_for(type = nil, object_id: nil, timeout: 10, &accepts)
      wanted = "a #{type ? "#{Array(type).join(' or ')} " : ''}delivery#{object_id ? " of #{object_id}" : ''}"
      wait_for_delivery(wanted: wanted, timeout: timeout) do |delivery|
        delivery.verified? && matches?(delivery.event, type, object_id) && (accepts.nil? || accepts.call(delivery.event))
      end.event
    end

    # The first Delivery, verified or refused, already received or still to come, for which the
    # block is true; raises EventTimeout after `timeout` seconds. `wanted` names it in that message.
    def wait_for_delivery(wanted: "a delivery the block accepts", timeout: 10, &accepts)
      deadline = Process.clock_gettime(Process::CLOCK_MONOTONIC) + timeout
      @lock.synchronize do
        loop do
          found = @received.find(&accepts)
          return found if found

          left = deadline - Process.clock_gettime(Process::CLOCK_MONOTONIC)
          raise EventTimeout.new(timeout_message(wanted, timeout), match: wanted, seen: @received.dup) if left <= 0

          @arrived.wait(@lock, left)
        end
      end
    end

    def close
      @server.close unless @server.closed?
      @acceptor.join
      @lock.synchronize { @connections.dup }.each { |socket| socket.close unless socket.closed? }
      nil
    end

    private

    def accept_connections
      loop do
        socket = @server.accept
        @lock.synchronize { @connections << socket }
        Thread.new { serve(socket) }.report_on_exception = false
      end
    rescue IOError, SystemCallError
      nil
    end

    # One request, then the connection closes (`Connection: close`), so no socket is left to reuse.
    def serve(socket)
      head = read_head(socket)
      return if head.nil?

      body = socket.read(head[:length]).to_s
      error = @secret ? StandardWebhooks.verification_error(@secret, head[:headers], body) : "the receiver has no secret to verify with (WebhookReceiver.new(secret:) or receiver.secret = …)"
      record(Delivery.new(event: parse(body), body: body, headers: head[:headers], verified: error.nil?, error: error))
      answer(socket, error.nil? ? "200 OK" : "400 Bad Request", error || "ok")
    rescue IOError, SystemCallError
      nil
    ensure
      socket.close unless socket.closed?
      @lock.synchronize { @connections.delete(socket) }
    end

    def read_head(socket)
      return nil unless socket.gets("\r\n", MAX_HEAD)

      headers = {}
      while (line = socket.gets("\r\n", MAX_HEAD)) && line != "\r\n"
        name, value = line.chomp.split(":", 2)
        headers[name.downcase] = value.to_s.strip
      end
      { headers: headers, length: headers["content-length"].to_i }
    end

    def record(delivery)
      @lock.synchronize do
        @received << delivery
        @arrived.broadcast
      end
    end

    def answer(socket, status, text)
      socket.write("HTTP/1.1 #{status}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: #{text.bytesize}\r\n" \
                   "Connection: close\r\n\r\n#{text}")
    end

    def parse(body)
      JSON.parse(body.dup.force_encoding(Encoding::UTF_8))
    rescue JSON::ParserError
      nil
    end

    def matches?(event, type, object_id)
      return false unless event.is_a?(Hash)

      types = Array(type)
      (types.empty? || types.any? { |t| t.end_with?(".*") ? event["type"].to_s.start_with?(t[0..-2]) : event["type"] == t }) &&
        (object_id.nil? || event.dig("data", "object", "id") == object_id)
    end

    def timeout_message(wanted, timeout)
      return "Waited #{timeout} s for #{wanted}; nothing arrived." if @received.empty?

      last = @received.last(10).map do |d|
        "#{d.event.is_a?(Hash) ? "#{d.event['type']} #{d.event.dig('data', 'object', 'id')}" : 'not JSON'}#{d.verified? ? '' : " (refused: #{d.error})"}"
      end
      "Waited #{timeout} s for #{wanted}; #{@received.size} arrived, the last: #{last.join(', ')}."
    end
  end
end

-- wrk script of `npm run bench:manifest` (wrk 4.x, LuaJIT).
--
-- Arguments (after `--` on wrk's command line): <runtime-version prefix> <track count> [current update id]
-- Builds one manifest request per track (runtime version <prefix>0 … <prefix><count-1>, platform ios,
-- channel production, a signature asked for) once per thread, and hands them out round robin.
-- A single track is a count of 1: single-track and 1,000-track runs then run the same Lua per
-- request, so the load generator's cost cannot tilt their ratio. With a current update id every
-- request says the app already runs it (the 204 path).
--
-- done() prints one JSON line, which the benchmark parses instead of wrk's text report.
-- errors.status counts answers with a status of 400 or more (wrk's own rule).

local requests = {}
local count = 0
local cursor = 0

function init(args)
  local prefix = args[1] or "1.0."
  count = tonumber(args[2] or "1")
  for i = 0, count - 1 do
    local headers = {
      ["Accept"] = "multipart/mixed,application/expo+json,application/json",
      ["expo-protocol-version"] = "1",
      ["expo-platform"] = "ios",
      ["expo-runtime-version"] = prefix .. i,
      ["expo-channel-name"] = "production",
      ["expo-expect-signature"] = 'sig, keyid="main", alg="rsa-v1_5-sha256"',
    }
    if args[3] then
      headers["expo-current-update-id"] = args[3]
    end
    requests[i + 1] = wrk.format("GET", "/api/updates/manifest", headers)
  end
end

function request()
  cursor = cursor % count + 1
  return requests[cursor]
end

function done(summary, latency, _)
  local e = summary.errors
  io.write(string.format(
    '{"wrk_summary":1,"requests":%d,"duration_us":%d,"bytes":%d,' ..
      '"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
      '"latency_us":{"p50":%d,"p99":%d,"max":%d}}\n',
    summary.requests, summary.duration, summary.bytes,
    e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(99), latency.max
  ))
end
